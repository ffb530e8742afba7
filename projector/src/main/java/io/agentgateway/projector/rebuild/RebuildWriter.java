package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.consume.PlannedEvent;
import io.agentgateway.projector.consume.SkipReason;
import io.agentgateway.projector.consume.SqlStateOf;
import io.agentgateway.projector.readmodel.WriteBatches;
import io.agentgateway.projector.readmodel.Write;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Writes planned events into the rebuild schema on one connection, in transactions the rebuild opens
 * and commits, with the live projector's own statements ({@link WriteBatches}). As in the live
 * projector, an event PostgreSQL refuses (a constraint) is left out alone: the batch is rolled back to
 * a savepoint and written again one event per savepoint, so the same events are skipped as live.
 */
final class RebuildWriter {
    private static final Logger log = LoggerFactory.getLogger(RebuildWriter.class);

    private final Connection connection;
    private final WriteBatches batches;
    private final SkipCounts skipped;
    private long projected;

    /** @param connection not in auto-commit mode, its search path set to the rebuild schema */
    RebuildWriter(Connection connection, SkipCounts skipped) {
        this.connection = connection;
        // the connection stays ours: the data source only lends it to Spring's JDBC template
        this.batches = WriteBatches.forBulkLoad(new SingleConnectionDataSource(connection, true));
        this.skipped = skipped;
    }

    /** Writes in the open transaction; commits nothing. */
    void write(List<PlannedEvent> events) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        List<Write> writes = new ArrayList<>();
        events.forEach(event -> writes.addAll(event.writes()));
        Savepoint beforeBatch = connection.setSavepoint();
        try {
            batches.execute(writes);
            connection.releaseSavepoint(beforeBatch);
            projected += events.size();
        } catch (DataIntegrityViolationException refused) {
            connection.rollback(beforeBatch);
            log.warn("PostgreSQL refused a batch of {} events (SQLState {}); writing them one by one to isolate the refused ones",
                    events.size(), SqlStateOf.failure(refused));
            for (PlannedEvent event : events) {
                writeAlone(event);
            }
        }
    }

    private void writeAlone(PlannedEvent event) throws SQLException {
        Savepoint beforeEvent = connection.setSavepoint();
        try {
            batches.execute(event.writes());
            connection.releaseSavepoint(beforeEvent);
            projected++;
        } catch (DataIntegrityViolationException refused) {
            connection.rollback(beforeEvent);
            // the exception's message quotes values of the row: log the SQLState only
            log.warn("Skipped {} {} (event {}, workspace {}): PostgreSQL refused its rows (SQLState {})",
                    event.type(), event.where(), event.envelope().eventId(), event.envelope().workspaceId(),
                    SqlStateOf.failure(refused));
            skipped.add(SkipReason.REJECTED_BY_DATABASE);
        }
    }

    void commit() throws SQLException {
        connection.commit();
    }

    /** Events written so far (committed or in the open transaction). */
    long projected() {
        return projected;
    }
}
