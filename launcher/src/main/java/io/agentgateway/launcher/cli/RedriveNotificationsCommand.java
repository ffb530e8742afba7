package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.schemas.deadletter.DeadLetterRedrive;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code launcher-*-exec.jar redrive-notifications [options]}: sends dead-lettered notifications again once their
 * channel works again ({@link DeadLetterRedrive}), listing each. For the operator who finds kill-switch alerts on the
 * dead-letter topic after a mail relay outage.
 *
 * <p>Exit codes: 0 done (also when there was nothing to send), 1 Kafka did not answer or refused the writes, 2 bad
 * arguments.
 */
public final class RedriveNotificationsCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private RedriveNotificationsCommand() {}

    public static int run(List<String> args) {
        return run(args, System.out, System.err);
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (OptionArguments.asksForHelp(args)) {
            out.print(RedriveOptions.USAGE);
            return OK;
        }
        RedriveOptions options;
        try {
            options = RedriveOptions.parse(args, LauncherSettings.fromEnvironment());
        } catch (IllegalArgumentException e) {
            err.println("redrive-notifications: " + e.getMessage() + " (see --help)");
            return USAGE;
        }
        CliLogging.quiet();
        try {
            DeadLetterRedrive.Result result = DeadLetterRedrive.run(options.bootstrapServers(), options.filter(),
                    options.dryRun(), options.timeout());
            String verb = options.dryRun() ? "would send again" : "sent again";
            result.redriven().forEach(redriven -> out.println(verb + ": " + redriven.describe()));
            out.println(result.redriven().size() + " dead-lettered notification(s) " + verb
                    + options.describeFilter().map(f -> " (" + f + ")").orElse("")
                    + ", " + result.passedOver() + " not matching, " + result.unreadable() + " unreadable");
            return OK;
        } catch (RuntimeException e) {
            // Kafka unreachable, or the writes refused: the reason, not a stack trace
            err.println("redrive-notifications failed: " + e.getMessage());
            return FAILED;
        }
    }
}
