package io.agentgateway.decisioncore.core.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.KillSwitchChanged;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The roles of the console's readers, judged in log order: a reviewer approves and rejects and does nothing else
 * (no kill switch, no policy, no member); a viewer decides nothing; a demotion accepted before a review applies to
 * it. The four-eyes rule, when on: whoever the agent named as {@code requestedBy} cannot approve (may reject). The
 * kill switch keeps the caller's reason.
 */
class ReviewerRolesTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    private String openApproval(String requestedBy) {
        return workspace.evaluate(new EvaluateAction(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", null, null, null,
                null, requestedBy, ActionSource.EVALUATE, Scope.EVALUATE, false)).ok().event(1, ApprovalRequested.class).approvalId();
    }

    @Test
    void a_reviewer_approves_and_rejects() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);
        String approved = openApproval(null);
        String rejected = openApproval(null);

        ApprovalReviewed yes = workspace.as(reviewer, new ReviewApproval(approved, ReviewVerdict.APPROVE, "fine")).ok()
                .event(0, ApprovalReviewed.class);
        ApprovalReviewed no = workspace.as(reviewer, new ReviewApproval(rejected, ReviewVerdict.REJECT, "not now")).ok()
                .event(0, ApprovalReviewed.class);

        assertThat(yes.reviewedBy()).isEqualTo("rita");
        assertThat(no.verdict()).isEqualTo(ReviewVerdict.REJECT);
    }

    @Test
    void a_reviewer_may_not_touch_the_kill_switch_policies_or_members() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);

        workspace.as(reviewer, new SetKillSwitch(KillSwitchAction.ENABLE, null, "panic"))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        workspace.as(reviewer, new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        workspace.as(reviewer, new UpsertPolicy(new Policy(UUID.randomUUID().toString(), "p", 1, true, Decision.ALLOW, null, null)))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        workspace.as(reviewer, new SetMember("rita", "rita@example.com", Role.ADMIN))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        assertThat(workspace.state().killSwitchEnabled()).isFalse();
    }

    @Test
    void a_viewer_decides_nothing() {
        Actor viewer = workspace.member("vic", Role.VIEWER);
        String id = openApproval(null);

        workspace.as(viewer, new ReviewApproval(id, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.REVIEWER_REQUIRED);
        workspace.as(viewer, new ReviewApproval(id, ReviewVerdict.REJECT, "no"))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.REVIEWER_REQUIRED);
        workspace.as(viewer, new SetKillSwitch(KillSwitchAction.ENABLE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        assertThat(workspace.memory.approvals()).containsKey(id);
    }

    @Test
    void a_reviewer_demoted_to_viewer_before_the_review_is_refused() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);
        String id = openApproval(null);
        workspace.admin(new SetMember("rita", "rita@example.com", Role.VIEWER)).ok();

        workspace.as(reviewer, new ReviewApproval(id, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.REVIEWER_REQUIRED);
    }

    @Test
    void under_the_four_eyes_rule_the_requester_cannot_approve_but_may_reject_and_others_may_approve() {
        CoreWorkspace fourEyes = CoreWorkspace.create(DecisionSettings.defaults().withFourEyes(true));
        Actor rita = fourEyes.member("rita", Role.REVIEWER);
        String byRitaId = fourEyes.evaluate(new EvaluateAction(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", null,
                null, null, null, "rita", ActionSource.EVALUATE, Scope.EVALUATE, false)).ok().event(1, ApprovalRequested.class).approvalId();
        String byRitaEmail = fourEyes.evaluate(new EvaluateAction(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", null,
                null, null, null, "RITA@example.com", ActionSource.EVALUATE, Scope.EVALUATE, false)).ok()
                .event(1, ApprovalRequested.class).approvalId();

        fourEyes.as(rita, new ReviewApproval(byRitaId, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, ReviewApprovalHandler.OWN_REQUEST);
        fourEyes.as(rita, new ReviewApproval(byRitaEmail, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, ReviewApprovalHandler.OWN_REQUEST);
        fourEyes.as(rita, new ReviewApproval(byRitaEmail, ReviewVerdict.REJECT, "mine, withdrawn")).ok();
        fourEyes.admin(new ReviewApproval(byRitaId, ReviewVerdict.APPROVE, null)).ok();
    }

    @Test
    void without_the_four_eyes_rule_the_requester_may_approve() {
        Actor rita = workspace.member("rita", Role.REVIEWER);
        String id = openApproval("rita");

        workspace.as(rita, new ReviewApproval(id, ReviewVerdict.APPROVE, null)).ok();
    }

    @Test
    void the_kill_switch_keeps_its_reason() {
        KillSwitchChanged changed = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null, "agent deleting branches"))
                .ok().event(0, KillSwitchChanged.class);
        assertThat(changed.reason()).isEqualTo("agent deleting branches");
        assertThat(changed.killSwitchEnabled()).isTrue();

        workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null, "x".repeat(2001)))
                .refused(ReplyStatus.INVALID, "reason must be at most 2000 characters");
        assertThat(workspace.state().killSwitchEnabled()).isTrue();
    }
}
