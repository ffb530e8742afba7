package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;

/**
 * Changes the per-risk defaults, the approval TTL and/or the time zone (an IANA id, checked against this JVM's zone
 * rules); the event carries the complete defaults now in force.
 */
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
        if (command.timeZone() != null && !TimeZones.isRegionOrUtc(command.timeZone())) {
            return CommandResult.invalid(state, "timeZone must be an IANA time zone id such as Europe/Berlin, or UTC");
        }
        WorkspaceState next = state.withDefaults(command.decisions(), command.approvalTtl());
        if (command.timeZone() != null) {
            next = next.withTimeZone(command.timeZone());
        }
        return CommandResult.accepted(next, new WorkspaceDefaultsSet(next.defaults(), next.approvalTtl(),
                next.timeZone().getId()));
    }
}
