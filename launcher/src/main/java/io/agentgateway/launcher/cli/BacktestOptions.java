package io.agentgateway.launcher.cli;

import io.agentgateway.ingress.api.AdminApiRules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of {@code backtest}: {@code --name value} or {@code --name=value}, each at most once.
 *
 * @param bootstrapServers  empty: the embedded default's broker (see {@link BacktestCommand})
 */
record BacktestOptions(
        String workspaceId,
        Path policiesFile,
        Instant from,
        Optional<Instant> to,
        Format format,
        Optional<String> bootstrapServers,
        Duration timeout) {

    enum Format { TABLE, JSON }

    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    private static final Set<String> NAMES =
            Set.of("workspace", "policies", "from", "to", "format", "bootstrap-servers", "timeout");

    static BacktestOptions parse(List<String> args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new CommandLineError("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new CommandLineError("--" + name + " needs a value");
            }
            if (!NAMES.contains(name)) {
                throw new CommandLineError("unknown option --" + name);
            }
            if (values.put(name, value) != null) {
                throw new CommandLineError("--" + name + " is given twice");
            }
        }
        String workspace = AdminApiRules.canonicalUuid(required(values, "workspace"))
                .orElseThrow(() -> new CommandLineError("--workspace must be a workspace id (a uuid)"));
        return new BacktestOptions(
                workspace,
                Path.of(required(values, "policies")),
                instant(required(values, "from"), "from"),
                Optional.ofNullable(values.get("to")).map(to -> instant(to, "to")),
                format(values.getOrDefault("format", "table")),
                Optional.ofNullable(values.get("bootstrap-servers")).filter(s -> !s.isBlank()),
                Optional.ofNullable(values.get("timeout")).map(BacktestOptions::duration).orElse(DEFAULT_TIMEOUT));
    }

    private static String required(Map<String, String> values, String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new CommandLineError("--" + name + " is required");
        }
        return value;
    }

    private static Instant instant(String text, String name) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new CommandLineError("--" + name + " must be an ISO-8601 timestamp such as 2026-03-01T00:00:00Z");
        }
    }

    private static Format format(String text) {
        return switch (text) {
            case "table" -> Format.TABLE;
            case "json" -> Format.JSON;
            default -> throw new CommandLineError("--format must be table or json");
        };
    }

    private static Duration duration(String text) {
        try {
            Duration duration = Duration.parse(text);
            if (duration.isZero() || duration.isNegative()) {
                throw new CommandLineError("--timeout must be positive");
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw new CommandLineError("--timeout must be an ISO-8601 duration such as PT10M");
        }
    }
}
