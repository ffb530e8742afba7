package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.projector.rebuild.ReadModelRebuild;
import io.agentgateway.projector.rebuild.RebuildException;
import io.agentgateway.projector.rebuild.RebuildResult;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code launcher-*-exec.jar rebuild [options]}: rebuilds every read model from the event log and
 * switches the gateway to the rebuilt tables ({@link ReadModelRebuild}), printing its progress once a
 * second. Works against the embedded default (its addresses are the defaults) and against an external
 * deployment (options or the launcher's environment variables).
 *
 * <p>Exit codes: 0 switched, 1 the rebuild failed (nothing was switched), 2 bad arguments.
 */
public final class RebuildCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private RebuildCommand() {}

    public static int run(List<String> args) {
        return run(args, System.out, System.err);
    }

    /** Prints progress and the result to {@code out}, a failure as one line to {@code err}. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (OptionArguments.asksForHelp(args)) {
            out.print(RebuildOptions.USAGE);
            return OK;
        }
        RebuildOptions options;
        try {
            options = RebuildOptions.parse(args, LauncherSettings.fromEnvironment());
        } catch (IllegalArgumentException e) {
            err.println("rebuild: " + e.getMessage() + " (see --help)");
            return USAGE;
        }
        CliLogging.ourWarnings();
        out.println("Rebuilding the read models of " + options.settings().jdbcUrl() + " from " + options.settings().bootstrapServers());
        try {
            RebuildResult result = ReadModelRebuild.run(options.settings(), progress -> out.println(progress.describe()));
            out.println(result.describe());
            return OK;
        } catch (RebuildException e) {
            // the message says what to do; a stack trace would only hide it
            err.println("rebuild failed: " + e.getMessage());
            return FAILED;
        } catch (RuntimeException e) {
            err.println("rebuild failed: " + e);
            return FAILED;
        }
    }
}
