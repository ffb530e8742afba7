package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EraseAuditPayload;
import io.agentgateway.schemas.event.AuditPayloadErased;

/**
 * An admin erases the stored payload of one audit entry (a privacy request). The stream keeps no audit rows, so it
 * cannot tell whether the id names one of the workspace's: the admin API checks that against the read model before it
 * sends the command, and the projector erases only a row of this workspace. What matters here is that the erasure is
 * decided in log order and becomes an entry of the workspace's Merkle log (its seal is added by the topology), so an
 * auditor finds every erased payload accounted for. Changes no state.
 */
final class EraseAuditPayloadHandler implements CommandHandler<EraseAuditPayload> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, EraseAuditPayload command) {
        if (!Validation.isUuid(command.auditLogId())) {
            return CommandResult.invalid(state, "auditLogId must be a lower-case UUID");
        }
        if (command.reason() != null && command.reason().length() > EraseAuditPayload.MAX_REASON_LENGTH) {
            return CommandResult.invalid(state, "reason must be at most " + EraseAuditPayload.MAX_REASON_LENGTH + " characters");
        }
        return CommandResult.accepted(state, new AuditPayloadErased(command.auditLogId(),
                command.reason() == null || command.reason().isBlank() ? null : command.reason()));
    }
}
