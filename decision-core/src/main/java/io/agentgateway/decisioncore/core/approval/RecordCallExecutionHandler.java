package io.agentgateway.decisioncore.core.approval;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.DomainEvent;
import java.util.Optional;

/**
 * Ends an approval with the outcome of its run, reported by the executor that holds the claim (no
 * other may). The approval leaves the state; its result lives in the read model.
 */
final class RecordCallExecutionHandler implements CommandHandler<RecordCallExecution> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RecordCallExecution command) {
        if (!Validation.isUuid(command.approvalId())) {
            return CommandResult.invalid(state, "approvalId must be a lower-case UUID");
        }
        if (Validation.blank(command.executorId())) {
            return CommandResult.invalid(state, "executorId is required");
        }
        if (command.outcome() == null) {
            return CommandResult.invalid(state, "outcome must be executed or failed");
        }
        if (command.result() == null || command.result().isMissingNode() || command.result().isNull()) {
            return CommandResult.invalid(state, "result is required");
        }
        Optional<PendingApproval> found = state.approval(command.approvalId());
        if (found.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        }
        PendingApproval approval = found.get();
        if (approval.status() != ApprovalStatus.EXECUTING) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT,
                    "Approval request is " + approval.status().wire() + ", not executing");
        }
        if (!command.executorId().equals(approval.claimedBy())) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "Approved call was claimed by another executor");
        }
        DomainEvent ended = command.outcome() == ExecutionOutcome.EXECUTED
                ? new ApprovedCallExecuted(command.approvalId(), command.executorId(), command.result(), envelope.acceptedAt())
                : new ApprovedCallFailed(command.approvalId(), command.executorId(), command.result(), envelope.acceptedAt());
        return CommandResult.accepted(state.withoutApproval(command.approvalId()), ended);
    }
}
