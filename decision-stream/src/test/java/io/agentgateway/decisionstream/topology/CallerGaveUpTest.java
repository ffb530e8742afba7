package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, "every undelivered decision marked": an evaluation decided in time whose caller the ingress answered
 * 503/504 all the same (its reply came too late, or its publish was given up on though the record was written).
 * The ingress's {@code RecordCallerGaveUp} follows it on the partition; the stream then records the decision as
 * undelivered ({@link EvaluationUndelivered}), ends the approval it opened ({@link ApprovalExpired}), notifies
 * nobody, answers nobody, and keeps the undelivered form as the attempt's outcome, so a retry with the same id is
 * decided afresh (DeadlineCheck).
 */
class CallerGaveUpTest extends OneWorkspaceTopologyTest {
    private static final Actor INGRESS = Actor.system("ingress");
    private static final Instant FUTURE = Instant.now().plusSeconds(3600);
    private static final Instant PAST = Instant.now().minusSeconds(5);

    private CommandEnvelope evaluation(String commandId, EvaluateAction action, Instant deadline) {
        CommandEnvelope plain = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), action);
        return new CommandEnvelope(plain.schemaVersion(), commandId, plain.workspaceId(), plain.correlationId(),
                plain.acceptedAt(), plain.replyPartition(), plain.actor(), plain.command(), deadline);
    }

    /** What the ingress sends after answering {@code attempt}'s caller 504: same workspace, nobody waits. */
    private CommandEnvelope gaveUp(CommandEnvelope attempt) {
        CommandEnvelope plain = workspace.envelope(INGRESS,
                new RecordCallerGaveUp(attempt.commandId(), attempt.acceptedAt(), 504));
        return new CommandEnvelope(plain.schemaVersion(),
                DerivedIds.callerGaveUpId(attempt.commandId(), attempt.acceptedAt()), plain.workspaceId(),
                attempt.correlationId(), plain.acceptedAt(), null, INGRESS, plain.command(), null);
    }

    private static EvaluateAction merge() {
        // code_host merge: require_approval by the built-in defaults
        return TestWorkspace.action(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW).build();
    }

    private static EvaluateAction read() {
        return TestWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW).build();
    }

    private ActionEvaluated storedAudit(CommandEnvelope attempt) {
        return driver.processedCommands().fetch(attempt.commandId(), attempt.acceptedAt().toEpochMilli())
                .audit().orElseThrow();
    }

    @Test
    void anApprovalDecidedInTimeIsMarkedUndeliveredEndedAndARetryIsDecidedAfresh() {
        String commandId = UUID.randomUUID().toString();
        CommandEnvelope first = evaluation(commandId, merge(), FUTURE);
        Emitted answered = driver.send(first);
        String auditLogId = answered.evaluation().auditLogId();
        String approvalId = answered.evaluation().approvalRequestId();
        assertThat(approvalId).isNotNull();
        assertThat(answered.notifications()).as("the reviewer was told once, when it was decided").hasSize(1);

        Emitted marked = driver.send(gaveUp(first));

        assertThat(marked.replies()).as("nobody waits for it").isEmpty();
        assertThat(marked.notifications()).as("nobody is told again").isEmpty();
        assertThat(marked.domainEvents()).containsExactly(
                new EvaluationUndelivered(auditLogId, commandId, approvalId, 504),
                new ApprovalExpired(approvalId, marked.events().get(1).occurredAt()));
        assertThat(driver.approvals(workspace.id)).doesNotContainKey(approvalId);
        assertThat(driver.workspaceStates().get(workspace.id).openApprovalCount()).isZero();
        ActionEvaluated stored = storedAudit(first);
        assertThat(stored.wasUndelivered()).as("the attempt's outcome is now its undelivered form").isTrue();
        assertThat(stored.approvalRequestId()).isNull();

        // the caller retries with the same Idempotency-Key: decided afresh, a row and an approval of its own
        Emitted retry = driver.send(evaluation(commandId, merge(), FUTURE));
        assertThat(retry.reply().commandId()).isEqualTo(commandId);
        assertThat(retry.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(retry.evaluation().auditLogId()).isNotEqualTo(auditLogId);
        assertThat(retry.evaluation().approvalRequestId()).isNotNull().isNotEqualTo(approvalId);
        assertThat(retry.notifications()).hasSize(1);
        assertThat(retry.event(0, ActionEvaluated.class).wasUndelivered()).isFalse();
    }

    @Test
    void anAllowDecidedInTimeIsMarkedAndARetryIsAnsweredWithAFreshDecision() {
        String commandId = UUID.randomUUID().toString();
        CommandEnvelope first = evaluation(commandId, read(), FUTURE);
        String auditLogId = driver.send(first).evaluation().auditLogId();

        Emitted marked = driver.send(gaveUp(first));

        assertThat(marked.replies()).isEmpty();
        assertThat(marked.only(EvaluationUndelivered.class))
                .isEqualTo(new EvaluationUndelivered(auditLogId, commandId, null, 504));
        Emitted retry = driver.send(evaluation(commandId, read(), FUTURE));
        assertThat(retry.evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(retry.evaluation().auditLogId()).isNotEqualTo(auditLogId);
    }

    @Test
    void aRedeliveredGiveUpAddsNoSecondEvent() {
        CommandEnvelope first = evaluation(UUID.randomUUID().toString(), merge(), FUTURE);
        driver.send(first);
        CommandEnvelope giveUp = gaveUp(first);
        Emitted marked = driver.send(giveUp);

        // at-least-once: the same record again re-emits the same events (same ids: the projector keeps them once)
        Emitted redelivered = driver.send(giveUp);
        assertThat(redelivered.replies()).isEmpty();
        assertThat(redelivered.notifications()).isEmpty();
        assertThat(redelivered.events()).extracting(EventEnvelope::eventId)
                .containsExactlyElementsOf(marked.events().stream().map(EventEnvelope::eventId).toList());
        // the ingress sending it again (a publish in doubt, retried) gets its derived id, the same record in effect
        assertThat(driver.send(gaveUp(first)).events()).extracting(EventEnvelope::eventId)
                .containsExactlyElementsOf(marked.events().stream().map(EventEnvelope::eventId).toList());
        // any other give-up for the same attempt finds it undelivered already: nothing
        CommandEnvelope other = gaveUp(first);
        driver.send(other.withCommandId(UUID.randomUUID().toString())).assertNothing();
    }

    @Test
    void aGiveUpForACommandNeverDecidedDoesNothing() {
        CommandEnvelope neverPublished = evaluation(UUID.randomUUID().toString(), merge(), FUTURE);

        driver.send(gaveUp(neverPublished)).assertNothing();

        // and the command arriving after its give-up (the log cannot order them so, but a hand-made record could)
        // is decided as usual
        assertThat(driver.send(neverPublished).evaluation().approvalRequestId()).isNotNull();
    }

    @Test
    void aGiveUpForADecisionAlreadyRecordedUndeliveredDoesNothing() {
        CommandEnvelope late = evaluation(UUID.randomUUID().toString(), merge(), PAST);
        assertThat(driver.send(late).only(ActionEvaluated.class).wasUndelivered()).isTrue();

        CommandEnvelope giveUp = gaveUp(late);
        driver.send(giveUp).assertNothing();
        // not even remembered: a stream behind its load gets one of these for every evaluation it decided too late,
        // and each must cost no store write
        try (var remembered = driver.processedCommands().backwardFetch(giveUp.commandId(), java.time.Instant.EPOCH,
                java.time.Instant.now().plus(java.time.Duration.ofDays(1)))) {
            assertThat(remembered.hasNext()).isFalse();
        }
        // and a redelivery of it does nothing either
        driver.send(giveUp).assertNothing();
    }

    @Test
    void aGiveUpForAnotherWorkspacesCommandDoesNothing() {
        CommandEnvelope first = evaluation(UUID.randomUUID().toString(), read(), FUTURE);
        driver.send(first);
        TestWorkspace other = TestWorkspace.create(driver);
        CommandEnvelope giveUp = gaveUp(first);
        CommandEnvelope elsewhere = new CommandEnvelope(giveUp.schemaVersion(), giveUp.commandId(), other.id,
                giveUp.correlationId(), giveUp.acceptedAt(), null, INGRESS, giveUp.command(), null);

        driver.send(elsewhere).assertNothing();
        assertThat(storedAudit(first).wasUndelivered()).isFalse();
    }

    @Test
    void anApprovalSomeoneAlreadyReviewedIsLeftAsItIsButTheEntryIsMarked() {
        CommandEnvelope first = evaluation(UUID.randomUUID().toString(), merge(), FUTURE);
        Emitted answered = driver.send(first);
        String approvalId = answered.evaluation().approvalRequestId();
        workspace.as(workspace.owner, new ReviewApproval(approvalId, ReviewVerdict.REJECT, "no")).ok();

        Emitted marked = driver.send(gaveUp(first));

        assertThat(marked.only(EvaluationUndelivered.class).approvalId()).as("no approval ended here").isNull();
    }

    @Test
    void aRetryDecidedAfreshAndGivenUpOnIsMarkedInItsTurn() {
        String commandId = UUID.randomUUID().toString();
        CommandEnvelope first = evaluation(commandId, read(), FUTURE);
        driver.send(first);
        driver.send(gaveUp(first));
        CommandEnvelope retry = evaluation(commandId, read(), FUTURE);
        String retryAudit = driver.send(retry).evaluation().auditLogId();

        Emitted marked = driver.send(gaveUp(retry));

        EvaluationUndelivered event = marked.only(EvaluationUndelivered.class);
        assertThat(event.auditLogId()).isEqualTo(retryAudit);
        assertThat(event.evaluationCommandId()).as("the id it was decided under").isEqualTo(DeadlineCheck.retryCommandId(retry));
        // the retry redelivered gets its stored (undelivered) outcome; a third attempt is decided afresh again
        Emitted redelivered = driver.send(retry);
        assertThat(redelivered.replies()).isEmpty();
        assertThat(redelivered.only(ActionEvaluated.class).auditLogId()).isEqualTo(retryAudit);
        assertThat(redelivered.only(ActionEvaluated.class).wasUndelivered()).isTrue();
        assertThat(driver.send(evaluation(commandId, read(), FUTURE)).evaluation().auditLogId())
                .isNotIn(retryAudit, DerivedIds.auditLogId(commandId));
    }

    @Test
    void theOriginalRedeliveredBeforeItsDeadlineAfterAGiveUpKeepsItsUndeliveredOutcome() {
        // a 503 (publish timed out) can be followed by its give-up before the deadline passes; a redelivery of the
        // very attempt (at-least-once) must not be decided afresh as if it were a retry
        CommandEnvelope first = evaluation(UUID.randomUUID().toString(), merge(), FUTURE);
        Emitted answered = driver.send(first);
        driver.send(gaveUp(first));

        Emitted redelivered = driver.send(first);

        assertThat(redelivered.replies()).isEmpty();
        assertThat(redelivered.notifications()).isEmpty();
        ActionEvaluated audit = redelivered.only(ActionEvaluated.class);
        assertThat(audit.auditLogId()).isEqualTo(answered.evaluation().auditLogId());
        assertThat(audit.wasUndelivered()).isTrue();
    }
}
