package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.WithdrawApproval;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code withdraw_approval} under TopologyTestDriver: the key that asked ends its pending approval (one event, the
 * approval gone from the store, the review after it finds nothing), another key learns nothing, a redelivered
 * withdrawal gets its first answer and emits nothing again, and a late one expires the approval through the sweep
 * first (it depends on what is due, like a review). Also what tasks are derived from: the opened approval's times on
 * the reply and the key on {@code check_access}'s snapshot.
 */
class WithdrawApprovalTest extends OneWorkspaceTopologyTest {
    private static final Duration TTL = Duration.ofMinutes(30);

    @BeforeEach
    void start() {
        workspace.admin(new SetWorkspaceDefaults(null, TTL)).ok();
    }

    private WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }

    private Actor asker() {
        return workspace.agent(workspace.evaluateKeyHash());
    }

    private ApprovalRequested held() {
        Emitted emitted = workspace.evaluate(TestWorkspace.action(Tool.MCP, "delete_repo", RiskLevel.HIGH)
                .source(ActionSource.MCP).build());
        EvaluationOutcome outcome = emitted.evaluation();
        ApprovalRequested requested = emitted.event(1, ApprovalRequested.class);
        assertThat(outcome.approvalExpiresAt()).isEqualTo(requested.expiresAt());
        assertThat(outcome.approvalCreatedAt()).isEqualTo(requested.expiresAt().minus(TTL));
        return requested;
    }

    @Test
    void the_asking_key_withdraws_it_once_and_a_redelivery_gets_the_same_answer_with_nothing_emitted_again() {
        ApprovalRequested requested = held();
        ApprovalSnapshot snapshot = workspace.as(asker(), new CheckAccess(null, null, null, requested.approvalId()))
                .ok().approval();
        assertThat(snapshot.requestedByKeyHash()).isEqualTo(workspace.evaluateKeyHash());
        assertThat(snapshot.createdAt()).isEqualTo(requested.expiresAt().minus(TTL));

        CommandEnvelope withdraw = workspace.envelope(asker(), new WithdrawApproval(requested.approvalId(), "not needed"));
        Emitted first = driver.send(withdraw);
        first.ok();
        assertThat(first.only(ApprovalWithdrawn.class))
                .isEqualTo(new ApprovalWithdrawn(requested.approvalId(), "not needed", withdraw.acceptedAt()));
        assertThat(driver.approvals(workspace.id)).isEmpty();
        WorkspaceState after = state();

        Emitted again = driver.send(withdraw);
        assertThat(again.reply().status()).isEqualTo(ReplyStatus.OK);
        assertThat(again.events()).isEqualTo(first.events());
        assertThat(state()).isEqualTo(after);

        workspace.admin(new ReviewApproval(requested.approvalId(), ReviewVerdict.APPROVE, null))
                .refused(ReplyStatus.NOT_FOUND, "Approval request not found");
    }

    @Test
    void another_key_gets_not_found_and_the_approval_stays_pending() {
        ApprovalRequested requested = held();
        Actor other = workspace.agent(workspace.issueKey(Set.of(Scope.MCP), null));

        workspace.as(other, new WithdrawApproval(requested.approvalId(), null))
                .refused(ReplyStatus.NOT_FOUND, "Approval request not found");
        assertThat(driver.approvals(workspace.id)).hasSize(1);
    }

    @Test
    void a_withdrawal_after_the_expiry_finds_it_expired_by_the_sweep() {
        ApprovalRequested requested = held();
        workspace.advance(Duration.between(workspace.now(), requested.expiresAt()).plusMillis(1));

        Emitted late = workspace.as(asker(), new WithdrawApproval(requested.approvalId(), null));
        assertThat(late.reply().status()).isEqualTo(ReplyStatus.NOT_FOUND);
        assertThat(late.only(ApprovalExpired.class)).isEqualTo(new ApprovalExpired(requested.approvalId(), requested.expiresAt()));
        assertThat(driver.approvals(workspace.id)).isEmpty();
    }
}
