package io.agentgateway.decision.core;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;

/** Changes the per-risk defaults and/or the approval TTL; the event carries the complete defaults now in force. */
final class SetWorkspaceDefaultsHandler implements CommandHandler<SetWorkspaceDefaults> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SetWorkspaceDefaults command) {
        if (command.decisions() != null
                && command.decisions().entrySet().stream().anyMatch(e -> e.getKey() == null || e.getValue() == null)) {
            return CommandResult.invalid(state,
                    "decisions must map low, medium, high or critical to allow, block or require_approval");
        }
        if (command.approvalTtl() != null && (command.approvalTtl().isZero() || command.approvalTtl().isNegative())) {
            return CommandResult.invalid(state, "approvalTtl must be a positive duration");
        }
        if (command.approvalTtl() != null && command.approvalTtl().compareTo(SetWorkspaceDefaults.MAX_APPROVAL_TTL) > 0) {
            // an expiry computed from a longer one can overflow: every approval of the workspace would fail
            return CommandResult.invalid(state, "approvalTtl must be at most P366D");
        }
        WorkspaceState next = state.withDefaults(command.decisions(), command.approvalTtl());
        return CommandResult.accepted(next, new WorkspaceDefaultsSet(next.defaults(), next.approvalTtl()));
    }
}
