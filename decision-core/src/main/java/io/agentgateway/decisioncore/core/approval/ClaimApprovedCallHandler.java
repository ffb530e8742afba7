package io.agentgateway.decisioncore.core.approval;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import java.util.List;
import java.util.Optional;

/**
 * Grants the one run of an approved call. The first claim in the workspace's log order wins and moves
 * the approval to executing; every later claim, by any executor (another replica, the same one after a
 * redelivered event), is refused. A redelivery of the winning claim command itself gets its stored
 * outcome again (the decision stream's dedupe), which is the same grant to the same executor attempt.
 *
 * <p>While the workspace's kill switch is on or the call's tool is paused, the claim is refused and the
 * approval ends {@code cancelled} ({@link ApprovedCallCancelled}, with the reason): the call never runs,
 * also not once the switch is lifted (the agent asks again). A granted claim's reply carries the tool
 * connection the call runs with, as the workspace holds it at the claim.
 */
final class ClaimApprovedCallHandler implements CommandHandler<ClaimApprovedCall> {
    static final String KILLED = "the workspace kill switch was enabled when the approved call was to run";

    /** Why the call may not run now: the kill switch, or its tool paused; empty when it may. */
    static Optional<String> halted(WorkspaceState state, PendingApproval approval) {
        if (state.killSwitchEnabled()) {
            return Optional.of(KILLED);
        }
        if (approval.tool() != null && state.pausedTools().contains(approval.tool())) {
            return Optional.of("the tool " + approval.tool().wire() + " was paused when the approved call was to run");
        }
        return Optional.empty();
    }

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
        Optional<String> halted = halted(state, approval);
        if (halted.isPresent()) {
            // the run would happen now, in log order after the switch: it never happens, and the approval says why
            return new CommandResult(state.withoutApproval(command.approvalId()), ReplyStatus.CONFLICT,
                    "Approved call cancelled: " + halted.get(), null,
                    List.of(new ApprovedCallCancelled(command.approvalId(), halted.get(), envelope.acceptedAt())), List.of());
        }
        // the run uses the connection as it is now, in log order: carried on the reply, never read elsewhere
        return CommandResult.accepted(state.withApproval(command.approvalId(), approval.claimedBy(command.executorId())),
                        new ApprovedCallClaimed(command.approvalId(), command.executorId(), envelope.acceptedAt()))
                .withConnection(approval.tool() == null ? null : state.toolConnection(approval.tool()).orElse(null));
    }
}
