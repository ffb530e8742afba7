package io.agentgateway.projector.consume;

import io.agentgateway.projector.readmodel.ReadModelWriter;
import io.agentgateway.projector.readmodel.Write;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;

/**
 * Writes the events of one batch in one transaction. When PostgreSQL refuses the batch because of
 * the data (a constraint), the batch is rolled back and its events are written one transaction each,
 * so the one refused event is skipped and counted and the others still land (idempotent writes make
 * the second attempt safe). Any other failure (database unreachable...) propagates: the container
 * retries the whole batch, and no offset is committed before it succeeds.
 */
@Component
public class BatchProjection {
    private static final Logger log = LoggerFactory.getLogger(BatchProjection.class);

    private final ReadModelWriter writer;
    private final ProjectionMetrics metrics;
    private final Clock clock;
    private final WriteFailureLog failures;

    public BatchProjection(ReadModelWriter writer, ProjectionMetrics metrics) {
        this.writer = writer;
        this.metrics = metrics;
        this.clock = Clock.systemUTC();
        this.failures = new WriteFailureLog(clock);
    }

    public void project(List<PlannedEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        try {
            projectBatch(events);
        } catch (RuntimeException failed) {
            // the container's error handler retries the batch with back-off; no offset is committed meanwhile
            failures.failed(events.size(), failed);
            metrics.batchFailed();
            throw failed;
        }
        failures.landed();
    }

    private void projectBatch(List<PlannedEvent> events) {
        List<Write> writes = new ArrayList<>();
        events.forEach(event -> writes.addAll(event.writes()));
        try {
            writer.writeInOneTransaction(writes);
        } catch (DataIntegrityViolationException refused) {
            log.warn("PostgreSQL refused a batch of {} events (SQLState {}); writing them one by one to isolate the refused ones",
                    events.size(), sqlState(refused));
            events.forEach(this::projectAlone);
            return;
        }
        var committedAt = clock.instant();
        events.forEach(event -> metrics.projected(event, committedAt));
    }

    private void projectAlone(PlannedEvent event) {
        try {
            writer.writeInOneTransaction(event.writes());
            metrics.projected(event, clock.instant());
        } catch (DataIntegrityViolationException refused) {
            // the exception's message quotes values of the row: log the SQLState only
            log.warn("Skipped {} {} (event {}, workspace {}): PostgreSQL refused its rows (SQLState {})",
                    event.type(), event.where(), event.envelope().eventId(), event.envelope().workspaceId(),
                    sqlState(refused));
            metrics.skipped(SkipReason.REJECTED_BY_DATABASE);
        }
    }

    private static String sqlState(Throwable failure) {
        return SqlStateOf.failure(failure);
    }
}
