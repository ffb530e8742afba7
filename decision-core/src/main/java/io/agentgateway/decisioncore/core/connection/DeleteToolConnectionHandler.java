package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.event.ToolConnectionDeleted;

/** Removes a tool connection with its secrets. Whether the tool is paused is the kill switch's and stays. */
final class DeleteToolConnectionHandler implements CommandHandler<DeleteToolConnection> {
    static final String NOT_FOUND = "Tool connection not found";

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, DeleteToolConnection command) {
        if (command.tool() == null) {
            return CommandResult.invalid(state, UpsertToolConnectionHandler.TOOL_MESSAGE);
        }
        if (state.toolConnection(command.tool()).isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, NOT_FOUND);
        }
        return CommandResult.accepted(state.withoutToolConnection(command.tool()), new ToolConnectionDeleted(command.tool()));
    }
}
