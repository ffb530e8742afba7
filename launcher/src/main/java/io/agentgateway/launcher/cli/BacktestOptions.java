package io.agentgateway.launcher.cli;

import io.agentgateway.adminapi.api.AdminApiRules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The options of {@code backtest}: {@code --name value} or {@code --name=value}, each at most once ({@link OptionArguments}).
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
            Set.of("--workspace", "--policies", "--from", "--to", "--format", "--bootstrap-servers", "--timeout");

    static BacktestOptions parse(List<String> args) {
        OptionArguments options = OptionArguments.parse(args, NAMES, Set.of());
        String workspace = AdminApiRules.canonicalUuid(options.required("--workspace"))
                .orElseThrow(() -> new CommandLineError("--workspace must be a workspace id (a uuid)"));
        return new BacktestOptions(
                workspace,
                Path.of(options.required("--policies")),
                instant(options.required("--from"), "from"),
                options.value("--to").map(to -> instant(to, "to")),
                format(options.value("--format").orElse("table")),
                options.value("--bootstrap-servers"),
                options.value("--timeout").map(BacktestOptions::duration).orElse(DEFAULT_TIMEOUT));
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
