package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentgateway.embeddedinfra.RestartablePostgres;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * PostgreSQL itself stops under a running projector and comes back on the same port (what the fault suite's
 * "stop PostgreSQL 20 s" does to a cluster): the events of the outage land once it is back, and what the log
 * says about it is one WARN when the first batch fails and one INFO when a batch lands again, no ERROR and no
 * stack trace of ours (not one per retry, not Spring's "overridden by rollback exception" of the dead connection).
 */
class PostgresOutageTest {

    @Test
    void anOutageIsOneWarningAndARecoveryLineAndLosesNothing() throws Exception {
        ListAppender<ILoggingEvent> logLines = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        try (RestartablePostgres postgres = RestartablePostgres.start();
                EventPublisher publisher = new EventPublisher();
                RunningProjector projector = RunningProjector.startOn(postgres.server().createDatabase("projector_pg_outage"),
                        "projector-test-" + UUID.randomUUID())) {
            WorkspaceEvents ws = new WorkspaceEvents();
            EventEnvelope before = ws.evaluation("docs.read");
            publisher.publish(ws.created("Outage"), before);
            JdbcTemplate jdbc = projector.jdbc();
            eventually().until(() -> auditRows(jdbc, before), count -> count == 1);

            logLines.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
            logLines.start();
            root.addAppender(logLines);
            double failedBefore = projector.failedBatches();
            postgres.stop();
            List<EventEnvelope> duringOutage = List.of(ws.evaluation("docs.search"), ws.evaluation("docs.write"));
            publisher.publish(duringOutage);
            eventually().until(projector::failedBatches, failed -> failed >= failedBefore + 2);

            postgres.restart();
            for (EventEnvelope evaluation : duringOutage) {
                afterRestart().until(() -> auditRows(jdbc, evaluation), count -> count == 1);
            }
            afterRestart().until(() -> auditRows(jdbc, before), count -> count == 1);
            root.detachAppender(logLines);

            List<ILoggingEvent> lines = List.copyOf(logLines.list);
            assertThat(lines).as("no ERROR during the outage: %s", describe(lines))
                    .noneMatch(line -> line.getLevel().isGreaterOrEqual(Level.ERROR));
            // Hikari's own WARN per pooled connection it finds dead (at most the pool's 4, one with the driver's
            // exception) is the pool's to say; ours and Spring's say it without a stack
            assertThat(lines).as("no stack trace from the projector, Spring or the Kafka clients: %s", describe(lines))
                    .noneMatch(line -> line.getThrowableProxy() != null && !line.getLoggerName().startsWith("com.zaxxer.hikari"));
            assertThat(lines).filteredOn(line -> line.getFormattedMessage().startsWith("PostgreSQL did not take a batch"))
                    .as(describe(lines)).hasSize(1).allMatch(line -> line.getLevel() == Level.WARN);
            assertThat(lines).filteredOn(line -> line.getFormattedMessage().startsWith("PostgreSQL takes the projector's batches again"))
                    .as(describe(lines)).hasSize(1).allMatch(line -> line.getLevel() == Level.INFO);
        } finally {
            root.detachAppender(logLines);
        }
    }

    /** The test's own pool may still hold connections the restart terminated: a query failing on one is "not yet". */
    private static ConditionFactory afterRestart() {
        return eventually().atMost(Duration.ofSeconds(45)).ignoreExceptionsInstanceOf(DataAccessResourceFailureException.class);
    }

    private static long auditRows(JdbcTemplate jdbc, EventEnvelope evaluation) {
        return jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                DerivedIds.auditLogId(evaluation.commandId()));
    }

    private static String describe(List<ILoggingEvent> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append('\n').append(line.getLevel()).append(' ').append(line.getLoggerName())
                .append(": ").append(line.getFormattedMessage())
                .append(line.getThrowableProxy() == null ? "" : " [" + line.getThrowableProxy().getClassName() + "]"));
        return text.toString();
    }
}
