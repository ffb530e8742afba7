package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.KillSwitchAction;
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
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.KillSwitchChanged;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's roles through the topology (TopologyTestDriver): a reviewer's review is decided and emitted, a
 * viewer's and a reviewer's kill switch are refused with nothing emitted, a demotion earlier in the log applies to the
 * review after it, a redelivered review is answered the same with the same events (never decided twice), and the four-eyes rule holds
 * with the stream's settings. The kill switch's reason reaches the event.
 */
class ReviewerRolesTopologyTest extends OneWorkspaceTopologyTest {
    @TempDir
    Path fourEyesDir;

    private String openApproval(TestWorkspace ws, String requestedBy) {
        return ws.evaluate(new EvaluateAction(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", null, null, null, null,
                requestedBy, ActionSource.EVALUATE, Scope.EVALUATE, false)).event(1, ApprovalRequested.class).approvalId();
    }

    @Test
    void a_reviewer_reviews_in_log_order_and_a_viewer_or_reviewer_cannot_switch() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);
        Actor viewer = workspace.member("vic", Role.VIEWER);
        String first = openApproval(workspace, null);
        String second = openApproval(workspace, null);

        workspace.as(viewer, new ReviewApproval(first, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, "Reviewer, admin or owner role required");
        Emitted reviewed = workspace.as(reviewer, new ReviewApproval(first, ReviewVerdict.REJECT, "not during the freeze"));
        reviewed.ok();
        assertThat(reviewed.only(ApprovalReviewed.class).reason()).isEqualTo("not during the freeze");
        workspace.as(reviewer, new SetKillSwitch(KillSwitchAction.ENABLE, null, "x"))
                .refused(ReplyStatus.FORBIDDEN, "Admin or owner role required");
        workspace.as(viewer, new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.DOCS))
                .refused(ReplyStatus.FORBIDDEN, "Admin or owner role required");

        // demoted before the review: the review after it in the log is refused
        workspace.admin(new SetMember("rita", "rita@example.com", Role.VIEWER)).ok();
        workspace.as(reviewer, new ReviewApproval(second, ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.FORBIDDEN, "Reviewer, admin or owner role required");
    }

    @Test
    void a_redelivered_review_is_answered_alike_and_emits_the_same_event_again() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);
        String id = openApproval(workspace, null);
        var command = workspace.envelope(reviewer, new ReviewApproval(id, ReviewVerdict.APPROVE, "ok"));

        Emitted first = driver.send(command);
        Emitted again = driver.send(command);

        assertThat(first.ok().status()).isEqualTo(ReplyStatus.OK);
        assertThat(again.reply()).isEqualTo(first.reply());
        // the outcome is re-emitted as it was (same event ids: the projector upserts it once), never decided twice
        assertThat(again.events()).isEqualTo(first.events());
    }

    @Test
    void the_four_eyes_rule_refuses_the_requester_only() {
        try (DecisionDriver fourEyes = new DecisionDriver(DecisionSettings.defaults().withFourEyes(true), fourEyesDir)) {
            TestWorkspace ws = TestWorkspace.create(fourEyes);
            Actor rita = ws.member("rita", Role.REVIEWER);
            String id = openApproval(ws, "rita@example.com");

            ws.as(rita, new ReviewApproval(id, ReviewVerdict.APPROVE, null))
                    .refused(ReplyStatus.FORBIDDEN, "Four-eyes rule: the user who requested this action cannot approve it");
            ws.admin(new ReviewApproval(id, ReviewVerdict.APPROVE, null)).ok();
        }
    }

    @Test
    void the_kill_switch_event_carries_the_reason() {
        Emitted enabled = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null, "agent deleting branches"));
        enabled.ok();
        assertThat(enabled.only(KillSwitchChanged.class).reason()).isEqualTo("agent deleting branches");
    }
}
