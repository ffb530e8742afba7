package io.agentgateway.decisioncore.core.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.WithdrawApproval;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code withdraw_approval} (an MCP client's {@code tasks/cancel}): only the key that opened the approval, only while
 * pending and in time, in log order with its review; and what the tasks of held calls are derived from: the key and
 * the times an opened approval records, on the evaluation's outcome and on {@code check_access}'s snapshot.
 */
class WithdrawApprovalHandlerTest {
    private static final SealedHeldCall HELD = new SealedHeldCall(HeldCallKind.MCP_TOOL_CALL, "v1.c2VhbGVk", "e".repeat(64));
    private static final String OTHER_KEY = "cd".repeat(32);

    private final CoreWorkspace workspace = CoreWorkspace.create();

    private Decided held() {
        return workspace.evaluate(new EvaluateAction(Tool.MCP, "delete_repo", RiskLevel.HIGH, "agent-7", null, null,
                null, null, null, ActionSource.MCP, Scope.EVALUATE, false, HELD)).ok();
    }

    private Actor otherKeyOfTheWorkspace() {
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "other", OTHER_KEY, Set.of(Scope.EVALUATE, Scope.MCP), null)).ok();
        return Actor.apiKey(OTHER_KEY, "agent-8");
    }

    @Test
    void the_opened_approval_records_its_key_and_times_and_says_them_on_the_outcome_and_the_snapshot() {
        Decided held = held();
        String id = held.event(1, ApprovalRequested.class).approvalId();
        EvaluationOutcome outcome = held.decision().evaluation();
        assertThat(outcome.approvalCreatedAt()).isEqualTo(held.envelope().acceptedAt());
        assertThat(outcome.approvalExpiresAt()).isEqualTo(held.envelope().acceptedAt().plus(DecisionSettings.DEFAULT_APPROVAL_TTL));
        assertThat(workspace.memory.approvals().get(id).requestedByKeyHash()).isEqualTo(CoreWorkspace.EVALUATE_KEY);

        ApprovalSnapshot snapshot = workspace.as(workspace.agent, new CheckAccess(null, null, null, id)).ok().decision().approval();
        assertThat(snapshot.status()).isEqualTo("pending");
        assertThat(snapshot.createdAt()).isEqualTo(held.envelope().acceptedAt());
        assertThat(snapshot.requestedByKeyHash()).isEqualTo(CoreWorkspace.EVALUATE_KEY);
        assertThat(snapshot.expiresAt()).isEqualTo(outcome.approvalExpiresAt());
        assertThat(snapshot.heldCallKind()).isEqualTo(HeldCallKind.MCP_TOOL_CALL);
    }

    @Test
    void the_key_that_asked_withdraws_its_pending_approval_and_then_no_review_can_approve_it() {
        String id = held().event(1, ApprovalRequested.class).approvalId();

        Decided withdrawn = workspace.as(workspace.agent, new WithdrawApproval(id, "the user cancelled")).ok();

        ApprovalWithdrawn event = withdrawn.event(0, ApprovalWithdrawn.class);
        assertThat(event.approvalId()).isEqualTo(id);
        assertThat(event.reason()).isEqualTo("the user cancelled");
        assertThat(event.withdrawnAt()).isEqualTo(withdrawn.envelope().acceptedAt());
        assertThat(withdrawn.outcome().events()).hasSize(1);
        assertThat(workspace.memory.approvals()).doesNotContainKey(id);
        assertThat(withdrawn.after().openApprovalCount()).isEqualTo(withdrawn.before().openApprovalCount() - 1);
        workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null)).refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        workspace.as(workspace.agent, new WithdrawApproval(id, null)).refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
    }

    @Test
    void another_key_of_the_workspace_a_user_and_the_gateway_cannot_withdraw_it_and_learn_nothing() {
        String id = held().event(1, ApprovalRequested.class).approvalId();
        Actor other = otherKeyOfTheWorkspace();

        workspace.as(other, new WithdrawApproval(id, null)).refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        workspace.as(other, new WithdrawApproval(UUID.randomUUID().toString(), null))
                .refused(ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        workspace.admin(new WithdrawApproval(id, null)).refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        workspace.as(Actor.system("approval-executor"), new WithdrawApproval(id, null))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        workspace.as(Actor.apiKey("ef".repeat(32), null), new WithdrawApproval(id, null))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        assertThat(workspace.memory.approvals().get(id).status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void a_revoked_key_may_not_withdraw_even_its_own() {
        String id = held().event(1, ApprovalRequested.class).approvalId();
        String keyId = workspace.memory.state().apiKeyByHash(CoreWorkspace.EVALUATE_KEY).orElseThrow().keyId();
        workspace.admin(new RevokeApiKey(keyId)).ok();

        workspace.as(workspace.agent, new WithdrawApproval(id, null)).refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        assertThat(workspace.memory.approvals()).containsKey(id);
    }

    @Test
    void a_reviewed_approval_is_refused_and_runs_as_reviewed() {
        String id = held().event(1, ApprovalRequested.class).approvalId();
        workspace.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null)).ok();

        workspace.as(workspace.agent, new WithdrawApproval(id, null))
                .refused(ReplyStatus.CONFLICT, "Approval request is approved, not pending");
        assertThat(workspace.memory.approvals().get(id).status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void after_its_expiry_the_withdrawal_expires_it_once() {
        String id = held().event(1, ApprovalRequested.class).approvalId();
        workspace.advance(DecisionSettings.DEFAULT_APPROVAL_TTL.plus(Duration.ofSeconds(5)));

        Decided late = workspace.as(workspace.agent, new WithdrawApproval(id, null));

        assertThat(late.status()).isEqualTo(ReplyStatus.CONFLICT);
        assertThat(late.decision().error()).startsWith("Approval request expired at ");
        assertThat(late.event(0, ApprovalExpired.class).approvalId()).isEqualTo(id);
        assertThat(workspace.memory.approvals()).doesNotContainKey(id);
    }

    @Test
    void malformed_withdrawals_are_invalid() {
        workspace.as(workspace.agent, new WithdrawApproval("not-a-uuid", null))
                .refused(ReplyStatus.INVALID, "approvalId must be a lower-case UUID");
        workspace.as(workspace.agent, new WithdrawApproval(UUID.randomUUID().toString(), "x".repeat(2001)))
                .refused(ReplyStatus.INVALID, "reason must be at most 2000 characters");
    }
}
