package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import java.util.Optional;

/**
 * Tool connection versions. A connection's version is the workspace version of its last change (the
 * command that made it gets {@code workspaceVersion + 1}, see {@code CommandProcessor}), so versions
 * only grow and a connection deleted and made again never repeats one. Entry points name the version
 * they hold in every command whose execution uses the connection; a command naming another version
 * than the current one is decided on nothing: it is answered {@code stale} with the current connection
 * (sealed), which the entry point adopts before it asks again.
 */
public final class ConnectionVersions {
    private ConnectionVersions() {}

    /** The version a connection changed by the command at hand gets: the state's version after it. */
    public static long next(WorkspaceState state) {
        return state.workspaceVersion() + 1;
    }

    /** The current connection's version as commands name it ({@link ToolConnection#NONE} for none). */
    static long current(WorkspaceState state, Tool tool) {
        return ToolConnection.versionOf(state.toolConnection(tool).orElse(null));
    }

    /** The stale answer when {@code named} is set and is not the current version; empty when the command may go on. */
    public static Optional<CommandResult> staleUnless(WorkspaceState state, Tool tool, Long named) {
        if (named == null || tool == null) {
            return Optional.empty();
        }
        ToolConnection current = state.toolConnection(tool).orElse(null);
        long version = ToolConnection.versionOf(current);
        if (named == version) {
            return Optional.empty();
        }
        String error = current == null
                ? "The workspace has no " + tool.wire() + " connection (the request named version " + named + ")"
                : "The " + tool.wire() + " connection is at version " + version + " (the request named version " + named + ")";
        return Optional.of(CommandResult.stale(state, error, current));
    }
}
