package io.agentgateway.decisioncore.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import org.junit.jupiter.api.Test;

/**
 * {@code record_caller_gave_up} decided by the core alone, given the decision recorded for the attempt (which the
 * topology looks up): a decision made in time is marked undelivered and its pending approval ends; anything else
 * (nothing recorded, already undelivered, an approval someone reviewed) is left as it is.
 */
class CallerGaveUpHandlerTest {
    private static final Actor INGRESS = Actor.system("ingress");
    private static final SealedHeldCall HELD = new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "v1.c2VhbGVk", "e".repeat(64));

    private final CoreWorkspace workspace = CoreWorkspace.create();

    private static ActionEvaluated audit(Decided evaluated) {
        return evaluated.event(0, ActionEvaluated.class);
    }

    @Test
    void an_allow_made_in_time_is_marked_undelivered_and_nothing_else_changes() {
        Decided allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();
        String auditLogId = allowed.event(0, ActionEvaluated.class).auditLogId();

        Decided gaveUp = workspace.gaveUp(INGRESS, allowed, audit(allowed), 504).ok();

        assertThat(gaveUp.events()).containsExactly(
                new EvaluationUndelivered(auditLogId, allowed.envelope().commandId(), null, 504));
        assertThat(gaveUp.decision().notifications()).isEmpty();
        assertThat(gaveUp.after().workspaceVersion()).isEqualTo(gaveUp.before().workspaceVersion());
    }

    @Test
    void a_pending_approval_the_decision_opened_ends_and_leaves_the_state() {
        Decided held = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();
        String approvalId = held.event(1, ApprovalRequested.class).approvalId();

        Decided gaveUp = workspace.gaveUp(INGRESS, held, audit(held), 503).ok();

        assertThat(gaveUp.event(0, EvaluationUndelivered.class).approvalId()).isEqualTo(approvalId);
        assertThat(gaveUp.event(0, EvaluationUndelivered.class).answeredStatus()).isEqualTo(503);
        assertThat(gaveUp.event(1, ApprovalExpired.class)).isEqualTo(new ApprovalExpired(approvalId, gaveUp.envelope().acceptedAt()));
        assertThat(gaveUp.events()).hasSize(2);
        assertThat(workspace.state().approval(approvalId)).isEmpty();
        assertThat(gaveUp.after().openApprovalCount()).isEqualTo(gaveUp.before().openApprovalCount() - 1);
        // a review after it finds nothing to approve
        workspace.admin(new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null)).refused(ReplyStatus.NOT_FOUND,
                "Approval request not found");
    }

    @Test
    void an_approval_someone_already_reviewed_stays_as_it_is_and_the_entry_is_marked_all_the_same() {
        // a held call: approved, it stays in the state until the gateway ran it
        Decided held = workspace.evaluate(new EvaluateAction(Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-7", null,
                null, null, null, null, ActionSource.PROXY, Scope.EVALUATE, false, HELD)).ok();
        String approvalId = held.event(1, ApprovalRequested.class).approvalId();
        workspace.admin(new ReviewApproval(approvalId, ReviewVerdict.APPROVE, null)).ok();
        var before = workspace.state().approval(approvalId);
        assertThat(before).map(PendingApproval::status).contains(ApprovalStatus.APPROVED);

        Decided gaveUp = workspace.gaveUp(INGRESS, held, audit(held), 504).ok();

        assertThat(gaveUp.events()).containsExactly(new EvaluationUndelivered(
                held.event(0, ActionEvaluated.class).auditLogId(), held.envelope().commandId(), null, 504));
        assertThat(workspace.state().approval(approvalId)).isEqualTo(before);
    }

    @Test
    void nothing_recorded_or_already_undelivered_is_a_no_op() {
        Decided allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();
        ActionEvaluated undelivered = audit(allowed).asUndelivered();

        Decided notFound = workspace.gaveUp(INGRESS, allowed, null, 504).ok();
        Decided already = workspace.gaveUp(INGRESS, allowed, undelivered, 504).ok();

        assertThat(notFound.events()).isEmpty();
        assertThat(notFound.after()).isEqualTo(notFound.before());
        assertThat(already.events()).isEmpty();
        // decided through the plain entry point (no lookup): nothing to mark either
        assertThat(workspace.as(INGRESS, new RecordCallerGaveUp(allowed.envelope().commandId(),
                allowed.envelope().acceptedAt(), 504)).ok().events()).isEmpty();
    }

    @Test
    void only_the_gateway_itself_may_say_a_caller_gave_up() {
        Decided allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();

        workspace.gaveUp(workspace.agent, allowed, audit(allowed), 504)
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.GATEWAY_REQUIRED);
        workspace.gaveUp(workspace.owner, allowed, audit(allowed), 504)
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.GATEWAY_REQUIRED);
    }

    @Test
    void a_caller_that_hung_up_or_an_ingress_that_died_before_answering_marks_the_entry_too() {
        Decided hungUp = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();
        Decided ingressDied = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();

        assertThat(workspace.gaveUp(INGRESS, hungUp, audit(hungUp), RecordCallerGaveUp.CLIENT_CLOSED_REQUEST).ok().events())
                .containsExactly(new EvaluationUndelivered(audit(hungUp).auditLogId(), hungUp.envelope().commandId(), null, 499));
        assertThat(workspace.gaveUp(INGRESS, ingressDied, audit(ingressDied), RecordCallerGaveUp.NOT_ANSWERED).ok().events())
                .containsExactly(new EvaluationUndelivered(audit(ingressDied).auditLogId(), ingressDied.envelope().commandId(),
                        null, 0));
    }

    @Test
    void a_status_that_says_the_caller_had_an_answer_is_refused() {
        Decided allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).ok();

        for (int status : new int[] {200, 500, 502, -1}) {
            workspace.gaveUp(INGRESS, allowed, audit(allowed), status)
                    .refused(ReplyStatus.INVALID, "answeredStatus must be 503, 504, 499 or 0");
        }
    }
}
