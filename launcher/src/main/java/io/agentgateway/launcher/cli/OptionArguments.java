package io.agentgateway.launcher.cli;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments of a command: {@code --name value} or {@code --name=value} for the options that take a value,
 * {@code --name} alone for the flags, {@code --help} or {@code -h}. Anything else is refused with a message for the
 * operator ({@link IllegalArgumentException}).
 */
record OptionArguments(Map<String, String> values, Set<String> flags, boolean help) {

    static OptionArguments parse(List<String> args, Set<String> valued, Set<String> flagNames) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        boolean help = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
                continue;
            }
            if (flagNames.contains(arg)) {
                flags.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (!valued.contains(name)) {
                throw new IllegalArgumentException("unknown argument '" + arg + "' (see --help)");
            }
            String value = eq >= 0 ? arg.substring(eq + 1) : i + 1 < args.size() ? args.get(++i) : null;
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " needs a value (see --help)");
            }
            values.put(name, value);
        }
        return new OptionArguments(Map.copyOf(values), Set.copyOf(flags), help);
    }

    Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    /** A value that must be a whole number of seconds, 1 or more. */
    Optional<Duration> seconds(String name) {
        return value(name).map(value -> {
            try {
                long seconds = Long.parseLong(value);
                if (seconds >= 1) {
                    return Duration.ofSeconds(seconds);
                }
            } catch (NumberFormatException notANumber) {
                // refused below
            }
            throw new IllegalArgumentException(name + " must be a whole number of seconds (1 or more), not '" + value + "'");
        });
    }
}
