package io.agentgateway.decision.handling;

import io.agentgateway.decision.state.ApprovalStatus;
import io.agentgateway.decision.state.PendingApproval;
import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import java.util.Optional;

/**
 * Grants the one run of an approved call. The first claim in the workspace's log order wins and moves
 * the approval to executing; every later claim, by any executor (another replica, the same one after a
 * redelivered event), is refused. A redelivery of the winning claim command itself gets its stored
 * outcome again (the decision stream's dedupe), which is the same grant to the same executor attempt.
 */
public final class ClaimApprovedCallHandler implements CommandHandler<ClaimApprovedCall> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, ClaimApprovedCall command) {
        if (!Validation.isUuid(command.approvalId())) {
            return CommandResult.invalid(state, "approvalId must be a lower-case UUID");
        }
        if (Validation.blank(command.executorId())) {
            return CommandResult.invalid(state, "executorId is required");
        }
        Optional<PendingApproval> found = state.approval(command.approvalId());
        if (found.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        }
        PendingApproval approval = found.get();
        if (approval.status() == ApprovalStatus.EXECUTING) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "Approved call was already claimed");
        }
        if (approval.status() != ApprovalStatus.APPROVED) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT,
                    "Approval request is " + approval.status().wire() + ", not approved");
        }
        if (!approval.holdsCall()) {
            // not reached today (such approvals end at their review), but never grant a run of nothing
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "Approval request holds no call to run");
        }
        return CommandResult.accepted(state.withApproval(command.approvalId(), approval.claimedBy(command.executorId())),
                new ApprovedCallClaimed(command.approvalId(), command.executorId(), envelope.acceptedAt()));
    }
}
