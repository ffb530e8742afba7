package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Serdes;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The give-up reports' bounds, against Kafka's own {@link MockProducer} (a broker that fails or never answers on
 * cue): a failed send is tried again until the retry time is over, then dropped and counted; no more than the
 * capacity wait at once; the caller never waits for any of it.
 */
class CallerGaveUpReportsTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MockProducer<String, CommandEnvelope> producer =
            new MockProducer<>(false, null, Serdes.String().serializer(), (topic, value) -> new byte[0]);
    private CallerGaveUpReports reports;

    @AfterEach
    void stop() {
        reports.close();
    }

    private static CommandEnvelope evaluation() {
        return new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                "corr", Instant.now(), 0, Actor.apiKey("ab".repeat(32), "agent-1"),
                new EvaluateAction(Tool.DOCS, "page.read", RiskLevel.LOW, "agent-1", null, null, null, null, null,
                        ActionSource.EVALUATE, Scope.EVALUATE, false), Instant.now());
    }

    private double count(String outcome) {
        return meters.counter(CallerGaveUpReports.METER, "outcome", outcome).count();
    }

    @Test
    void aFailedSendIsTriedAgainAndPublishedOnceTheBrokerAnswers() {
        reports = new CallerGaveUpReports(producer, meters, Duration.ofSeconds(30), Duration.ofMillis(20), 10);
        CommandEnvelope evaluation = evaluation();

        reports.report(evaluation, 503, InFlightJournal.Entry.NONE);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 1);
        producer.errorNext(new TimeoutException("Expiring 1 record(s)"));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 2);
        producer.completeNext();

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> count("published") == 1);
        assertThat(count("retried")).isEqualTo(1);
        assertThat(count("dropped")).isZero();
        assertThat(reports.outstanding()).isZero();
        assertThat(producer.history()).allSatisfy(record -> {
            assertThat(record.key()).isEqualTo(evaluation.workspaceId());
            assertThat(record.value().command()).isEqualTo(new RecordCallerGaveUp(evaluation.commandId(),
                    evaluation.acceptedAt(), 503));
        });
        assertThat(producer.history().get(0).value().commandId()).as("the same report each time")
                .isEqualTo(producer.history().get(1).value().commandId());
    }

    @Test
    void aReportThatCannotBeSentWithinTheRetryTimeIsDroppedAndCounted() {
        reports = new CallerGaveUpReports(producer, meters, Duration.ofMillis(300), Duration.ofMillis(20), 10);

        reports.report(evaluation(), 504, InFlightJournal.Entry.NONE);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            // the broker refuses every send
            while (producer.errorNext(new TimeoutException("Expiring 1 record(s)"))) {
                // each completes one send
            }
            return count("dropped") == 1;
        });
        assertThat(count("published")).isZero();
        assertThat(count("retried")).isGreaterThanOrEqualTo(1);
        assertThat(reports.outstanding()).isZero();
    }

    @Test
    void noMoreThanTheCapacityWaitAndTheRestIsDroppedAtOnce() {
        reports = new CallerGaveUpReports(producer, meters, Duration.ofSeconds(30), Duration.ofMillis(20), 2);

        reports.report(evaluation(), 504, InFlightJournal.Entry.NONE);
        reports.report(evaluation(), 504, InFlightJournal.Entry.NONE);
        reports.report(evaluation(), 504, InFlightJournal.Entry.NONE);

        assertThat(count("dropped")).isEqualTo(1);
        assertThat(reports.outstanding()).isEqualTo(2);
    }

    @Test
    void onlyEvaluationsAreReported() {
        reports = new CallerGaveUpReports(producer, meters, Duration.ofSeconds(30), Duration.ofMillis(20), 2);
        CommandEnvelope create = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                UUID.randomUUID().toString(), "corr", Instant.now(), 0, Actor.user("u", null), new CreateWorkspace("w"));

        reports.report(create, 504, InFlightJournal.Entry.NONE);

        assertThat(reports.outstanding()).isZero();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void aJournalEntryIsReleasedOnceItsReportIsAcknowledgedOrDroppedAndKeptWhenTheIngressStops(@TempDir Path dir) {
        reports = new CallerGaveUpReports(producer, meters, Duration.ofMillis(300), Duration.ofMillis(20), 10);
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 16, Optional.of("boot-1"))) {
            CommandEnvelope acknowledged = evaluation();
            CommandEnvelope refused = evaluation();
            reports.report(acknowledged, 504, journal.record(acknowledged.commandId(), acknowledged.workspaceId(), "c",
                    acknowledged.acceptedAt()));
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() == 1);
            producer.completeNext();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> journal.inUse() == 0);

            reports.report(refused, 503, journal.record(refused.commandId(), refused.workspaceId(), "c", refused.acceptedAt()));
            assertThat(journal.inUse()).isEqualTo(1);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                while (producer.errorNext(new TimeoutException("Expiring 1 record(s)"))) {
                    // each completes one send
                }
                return count("dropped") == 1;
            });
            assertThat(journal.inUse()).as("dropped after the retry time: unmarked, as documented").isZero();
        }

        CallerGaveUpReports stopping = new CallerGaveUpReports(producer, meters, Duration.ofSeconds(30), Duration.ofMillis(20), 10);
        CommandEnvelope waiting = evaluation();
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 16, Optional.of("boot-1"))) {
            stopping.report(waiting, 504, journal.record(waiting.commandId(), waiting.workspaceId(), "c", waiting.acceptedAt()));
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> producer.history().size() >= 3);
            stopping.close();
            // the broker acknowledges it only after the ingress stopped: the entry is the next start's
            producer.errorNext(new TimeoutException("Expiring 1 record(s)"));
        }
        try (InFlightJournal next = InFlightJournal.open(dir, 0, 16, Optional.of("boot-1"))) {
            assertThat(next.unanswered()).extracting(InFlightJournal.Unanswered::commandId).containsExactly(waiting.commandId());
        }
    }
}
