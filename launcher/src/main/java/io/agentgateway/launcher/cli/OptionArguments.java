package io.agentgateway.launcher.cli;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments of every launcher command but the gateway's own: {@code --name value} or {@code --name=value} for
 * the options that take a value (each at most once), {@code --name} alone for the flags. A command asks
 * {@link #asksForHelp} first: {@code --help} or {@code -h} wins over anything else typed.
 * Anything else is refused with a {@link CommandLineError}, one line the command prints with its name and a pointer
 * to its {@code --help}. A value that starts with {@code --} is only taken in the {@code --name=value} form: else a
 * forgotten value would swallow the next option.
 */
record OptionArguments(Map<String, String> values, Set<String> flags) {

    /** Whether the usage is asked for, whatever else was typed: the usage says how to type it. */
    static boolean asksForHelp(List<String> args) {
        return args.contains("--help") || args.contains("-h");
    }

    /**
     * @param valued    the options that take a value, with their {@code --}
     * @param flagNames the options that take none
     */
    static OptionArguments parse(List<String> args, Set<String> valued, Set<String> flagNames) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new CommandLineError("unexpected argument '" + arg + "'");
            }
            if (flagNames.contains(arg)) {
                flags.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (!valued.contains(name)) {
                throw new CommandLineError("unknown option " + name);
            }
            String value = eq >= 0 ? arg.substring(eq + 1)
                    : i + 1 < args.size() && !args.get(i + 1).startsWith("--") ? args.get(++i) : null;
            if (value == null || value.isBlank()) {
                throw new CommandLineError(name + " needs a value");
            }
            if (values.put(name, value) != null) {
                throw new CommandLineError(name + " is given twice");
            }
        }
        return new OptionArguments(Map.copyOf(values), Set.copyOf(flags));
    }

    Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** @throws CommandLineError {@code "<name> is required"} when it was not given */
    String required(String name) {
        return value(name).orElseThrow(() -> new CommandLineError(name + " is required"));
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
            throw new CommandLineError(name + " must be a whole number of seconds (1 or more), not '" + value + "'");
        });
    }
}
