package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * DESIGN.md "Deadlines": an evaluation decided after the caller's deadline reached nobody. It is recorded
 * as undelivered; it opens no approval, notifies nobody, changes no state and is not answered. A retry
 * with the same command id (an Idempotency-Key) gets the first outcome when that one was delivered.
 */
class DeadlinesTest extends OneWorkspaceTopologyTest {
    private static final Instant PAST = Instant.now().minusSeconds(5);
    private static final Instant FUTURE = Instant.now().plusSeconds(3600);

    private CommandEnvelope evaluation(String commandId, EvaluateAction action, Instant deadline) {
        CommandEnvelope plain = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), action);
        return new CommandEnvelope(plain.schemaVersion(), commandId, plain.workspaceId(), plain.correlationId(),
                plain.acceptedAt(), plain.replyPartition(), plain.actor(), plain.command(), deadline);
    }

    private static EvaluateAction highRiskMerge() {
        // code_host merge: high risk, require_approval by the built-in defaults
        return TestWorkspace.action(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW).build();
    }

    @Test
    void aLateRequireApprovalOpensNoApprovalNotifiesNobodyAndIsNotAnswered() {
        String commandId = UUID.randomUUID().toString();
        Emitted late = driver.send(evaluation(commandId, highRiskMerge(), PAST));

        assertThat(late.replies()).as("nobody waits: no reply").isEmpty();
        assertThat(late.notifications()).as("no reviewer is told").isEmpty();
        ActionEvaluated audit = late.only(ActionEvaluated.class);
        assertThat(audit.decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(audit.wasUndelivered()).isTrue();
        assertThat(audit.approvalRequestId()).isNull();
        assertThat(audit.auditLogId()).isEqualTo(DerivedIds.auditLogId(commandId));
        assertThat(driver.workspaceStates().get(workspace.id).approval(DerivedIds.approvalId(commandId))).isEmpty();
    }

    @Test
    void aLateAllowIsRecordedAsReachingNobodyAndNotAnswered() {
        Emitted late = driver.send(evaluation(UUID.randomUUID().toString(),
                TestWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW).build(), PAST));
        assertThat(late.replies()).isEmpty();
        ActionEvaluated audit = late.only(ActionEvaluated.class);
        assertThat(audit.decision()).isEqualTo(Decision.ALLOW);
        assertThat(audit.wasUndelivered()).isTrue();
    }

    @Test
    void inTimeTheDecisionIsAnsweredAsBefore() {
        Emitted answered = driver.send(evaluation(UUID.randomUUID().toString(), highRiskMerge(), FUTURE));
        assertThat(answered.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(answered.evaluation().approvalRequestId()).isNotNull();
        assertThat(answered.notifications()).hasSize(1);
        assertThat(answered.event(0, ActionEvaluated.class).wasUndelivered()).isFalse();
        assertThat(answered.event(0, ActionEvaluated.class).undelivered()).as("delivered entries do not carry the flag").isNull();
    }

    @Test
    void aLateKillSwitchIsStillApplied() {
        // changes are applied whenever they are decided: a late kill switch still stops the agents
        CommandEnvelope plain = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
        CommandEnvelope late = new CommandEnvelope(plain.schemaVersion(), plain.commandId(), plain.workspaceId(),
                plain.correlationId(), plain.acceptedAt(), plain.replyPartition(), plain.actor(), plain.command(), PAST);
        driver.send(late).ok();
        assertThat(driver.workspaceStates().get(workspace.id).killSwitchEnabled()).isTrue();
    }

    @Test
    void aRetryWithTheSameIdGetsTheFirstDeliveredOutcomeAndNoSecondRow() {
        String commandId = UUID.randomUUID().toString();
        Emitted first = driver.send(evaluation(commandId, highRiskMerge(), FUTURE));
        Emitted retry = driver.send(evaluation(commandId, highRiskMerge(), FUTURE));
        assertThat(retry.evaluation()).isEqualTo(first.evaluation());
        // the same events again (same ids: the projector keeps one row), no new approval
        assertThat(retry.events()).extracting(e -> e.eventId()).containsExactlyElementsOf(
                first.events().stream().map(e -> e.eventId()).toList());
    }

    @Test
    void aRetryOfAnUndeliveredCommandIsDecidedAfreshAndItsAnswerKept() {
        String commandId = UUID.randomUUID().toString();
        Emitted late = driver.send(evaluation(commandId, highRiskMerge(), PAST));
        String lateAudit = late.only(ActionEvaluated.class).auditLogId();

        Emitted retry = driver.send(evaluation(commandId, highRiskMerge(), FUTURE));
        assertThat(retry.reply().commandId()).as("answered under the id the caller waits on").isEqualTo(commandId);
        assertThat(retry.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(retry.evaluation().auditLogId()).as("a row of its own beside the undelivered one").isNotEqualTo(lateAudit);
        assertThat(retry.evaluation().approvalRequestId()).isNotNull();
        assertThat(retry.notifications()).hasSize(1);
        assertThat(retry.event(0, ActionEvaluated.class).wasUndelivered()).isFalse();

        // a further retry gets that answer again, not a third row
        Emitted again = driver.send(evaluation(commandId, highRiskMerge(), FUTURE));
        assertThat(again.evaluation()).isEqualTo(retry.evaluation());
    }

    @Test
    void aLateCommandRedeliveredIsNotRecordedTwice() {
        // at-least-once: the same late envelope processed again after a crash re-emits its stored outcome
        CommandEnvelope late = evaluation(UUID.randomUUID().toString(), highRiskMerge(), PAST);
        Emitted first = driver.send(late);
        Emitted again = driver.send(late);
        assertThat(again.replies()).isEmpty();
        assertThat(again.events()).extracting(e -> e.eventId())
                .containsExactlyElementsOf(first.events().stream().map(e -> e.eventId()).toList());
        assertThat(again.only(ActionEvaluated.class).auditLogId()).isEqualTo(first.only(ActionEvaluated.class).auditLogId());
    }
}
