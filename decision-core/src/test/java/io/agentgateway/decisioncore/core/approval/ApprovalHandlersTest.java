package io.agentgateway.decisioncore.core.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ExecutionOutcome;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The approval lifecycle's commands decided by the core alone: {@code review_approval} (admin gate, pending only,
 * expiry), {@code claim_approved_call} (the gateway only, one claim, cancelled while killed or paused) and
 * {@code record_call_execution} (the claiming executor only), each with the approval's state afterwards.
 */
class ApprovalHandlersTest {
    private static final Actor EXECUTOR = Actor.system("approval-executor");
    private static final JsonNode RESULT = GatewayJson.MAPPER.readTree("{\"status\":200}");
    /** A held call as an entry point seals it; the core checks only its form. */
    private static final SealedHeldCall HELD = new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "v1.c2VhbGVk", "e".repeat(64));

    private final CoreWorkspace workspace = CoreWorkspace.create();

    private String openEvaluateApproval() {
        return workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok().event(1, ApprovalRequested.class).approvalId();
    }

    private String openHeldCallApproval() {
        return workspace.evaluate(new EvaluateAction(Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-7", null, null,
                null, null, null, ActionSource.PROXY, Scope.EVALUATE, false, HELD)).ok().event(1, ApprovalRequested.class).approvalId();
    }

    private String approvedHeldCall() {
        String id = openHeldCallApproval();
        workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null)).ok();
        return id;
    }

    @Test
    void rejecting_ends_the_approval_and_it_leaves_the_state() {
        String id = openEvaluateApproval();

        Decided reviewed = workspace.admin(new ReviewApproval(id, ReviewVerdict.REJECT, "not now")).ok();

        ApprovalReviewed event = reviewed.event(0, ApprovalReviewed.class);
        assertThat(event.verdict()).isEqualTo(ReviewVerdict.REJECT);
        assertThat(event.reviewedBy()).isEqualTo(workspace.owner.userId());
        assertThat(event.reason()).isEqualTo("not now");
        assertThat(workspace.memory.approvals()).doesNotContainKey(id);
        assertThat(reviewed.after().openApprovalCount()).isEqualTo(reviewed.before().openApprovalCount() - 1);
    }

    @Test
    void approving_without_a_held_call_ends_it_and_with_one_keeps_it_approved_until_it_ran() {
        String noCall = openEvaluateApproval();
        workspace.admin(new ReviewApproval(noCall, ReviewVerdict.APPROVE, null)).ok();
        assertThat(workspace.memory.approvals()).doesNotContainKey(noCall);

        String held = openHeldCallApproval();
        Decided approved = workspace.admin(new ReviewApproval(held, ReviewVerdict.APPROVE, null)).ok();
        assertThat(approved.event(0, ApprovalReviewed.class).heldCallKind()).isEqualTo(HeldCallKind.HTTP_REQUEST);
        assertThat(workspace.memory.approvals().get(held).status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void a_review_is_refused_to_non_admins_for_unknown_or_reviewed_approvals_and_malformed_commands() {
        String id = openEvaluateApproval();
        Actor member = workspace.member("mia", Role.MEMBER);

        workspace.as(member, new ReviewApproval(id, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.REVIEWER_REQUIRED);
        workspace.admin(new ReviewApproval("not-a-uuid", ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.INVALID, "approvalId must be a lower-case UUID");
        workspace.admin(new ReviewApproval(id, null, null)).refused(ReplyStatus.INVALID, "verdict must be approve or reject");
        workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, "x".repeat(2001)))
                .refused(ReplyStatus.INVALID, "reason must be at most 2000 characters");
        workspace.admin(new ReviewApproval(java.util.UUID.randomUUID().toString(), ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);

        String held = approvedHeldCall();
        workspace.admin(new ReviewApproval(held, ReviewVerdict.REJECT, null))
                .refused(ReplyStatus.CONFLICT, "Approval request is approved, not pending");
    }

    @Test
    void a_review_after_the_expiry_expires_the_approval_once() {
        String id = openEvaluateApproval();
        workspace.advance(DecisionSettings.DEFAULT_APPROVAL_TTL.plus(Duration.ofSeconds(5)));

        Decided late = workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null));

        assertThat(late.status()).isEqualTo(ReplyStatus.CONFLICT);
        assertThat(late.decision().error()).startsWith("Approval request expired at ");
        assertThat(late.event(0, ApprovalExpired.class).approvalId()).isEqualTo(id);
        assertThat(workspace.memory.approvals()).doesNotContainKey(id);
        workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
    }

    @Test
    void the_first_claim_wins_and_every_later_one_is_refused() {
        String id = approvedHeldCall();

        Decided claimed = workspace.as(EXECUTOR, new ClaimApprovedCall(id, "executor-1")).ok();

        assertThat(claimed.event(0, ApprovedCallClaimed.class).executorId()).isEqualTo("executor-1");
        assertThat(workspace.memory.approvals().get(id).status()).isEqualTo(ApprovalStatus.EXECUTING);
        assertThat(workspace.memory.approvals().get(id).claimedBy()).isEqualTo("executor-1");
        assertThat(claimed.decision().connection()).as("no internal_api connection").isNull();
        workspace.as(EXECUTOR, new ClaimApprovedCall(id, "executor-1"))
                .refused(ReplyStatus.CONFLICT, "Approved call was already claimed");
        workspace.as(EXECUTOR, new ClaimApprovedCall(id, "executor-2"))
                .refused(ReplyStatus.CONFLICT, "Approved call was already claimed");
    }

    @Test
    void only_the_gateway_claims_and_only_approved_calls() {
        String pending = openHeldCallApproval();
        workspace.admin(new ClaimApprovedCall(pending, "executor-1"))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.GATEWAY_REQUIRED);
        workspace.as(EXECUTOR, new ClaimApprovedCall(pending, "executor-1"))
                .refused(ReplyStatus.CONFLICT, "Approval request is pending, not approved");
        workspace.as(EXECUTOR, new ClaimApprovedCall(pending, " ")).refused(ReplyStatus.INVALID, "executorId is required");
        workspace.as(EXECUTOR, new ClaimApprovedCall(java.util.UUID.randomUUID().toString(), "executor-1"))
                .refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
    }

    @Test
    void a_claim_while_killed_or_paused_cancels_the_call_for_good() {
        String killed = approvedHeldCall();
        String paused = approvedHeldCall();
        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();

        Decided cancelled = workspace.as(EXECUTOR, new ClaimApprovedCall(killed, "executor-1"));
        assertThat(cancelled.status()).isEqualTo(ReplyStatus.CONFLICT);
        assertThat(cancelled.decision().error()).isEqualTo("Approved call cancelled: " + ClaimApprovedCallHandler.KILLED);
        assertThat(cancelled.event(0, ApprovedCallCancelled.class).reason()).isEqualTo(ClaimApprovedCallHandler.KILLED);
        assertThat(workspace.memory.approvals()).doesNotContainKey(killed);

        workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.INTERNAL_API)).ok();
        Decided pausedClaim = workspace.as(EXECUTOR, new ClaimApprovedCall(paused, "executor-1"));
        assertThat(pausedClaim.decision().error())
                .isEqualTo("Approved call cancelled: the tool internal_api was paused when the approved call was to run");
        assertThat(workspace.memory.approvals()).doesNotContainKey(paused);
        workspace.as(EXECUTOR, new ClaimApprovedCall(killed, "executor-1"))
                .refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
    }

    @Test
    void the_claiming_executor_records_the_run_and_the_approval_leaves() {
        String executed = approvedHeldCall();
        workspace.as(EXECUTOR, new ClaimApprovedCall(executed, "executor-1")).ok();
        workspace.as(EXECUTOR, new RecordCallExecution(executed, "executor-2", ExecutionOutcome.EXECUTED, RESULT))
                .refused(ReplyStatus.CONFLICT, "Approved call was claimed by another executor");

        Decided recorded = workspace.as(EXECUTOR, new RecordCallExecution(executed, "executor-1", ExecutionOutcome.EXECUTED,
                RESULT)).ok();
        assertThat(recorded.event(0, ApprovedCallExecuted.class).result()).isEqualTo(RESULT);
        assertThat(workspace.memory.approvals()).doesNotContainKey(executed);

        String failed = approvedHeldCall();
        workspace.as(EXECUTOR, new RecordCallExecution(failed, "executor-1", ExecutionOutcome.FAILED, RESULT))
                .refused(ReplyStatus.CONFLICT, "Approval request is approved, not executing");
        workspace.as(EXECUTOR, new ClaimApprovedCall(failed, "executor-1")).ok();
        workspace.as(EXECUTOR, new RecordCallExecution(failed, "executor-1", null, RESULT))
                .refused(ReplyStatus.INVALID, "outcome must be executed or failed");
        workspace.as(EXECUTOR, new RecordCallExecution(failed, "executor-1", ExecutionOutcome.FAILED, null))
                .refused(ReplyStatus.INVALID, "result is required");
        assertThat(workspace.as(EXECUTOR, new RecordCallExecution(failed, "executor-1", ExecutionOutcome.FAILED, RESULT)).ok()
                .event(0, ApprovedCallFailed.class).approvalId()).isEqualTo(failed);
        assertThat(workspace.memory.approvals()).isEmpty();
    }
}
