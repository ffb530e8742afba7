package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When PostgreSQL cannot take a batch for a reason that is not the data, the batch is retried until
 * it can, never skipped: audit rows are not lost to an outage. The outage is played by taking the
 * audit table away (renaming it) and giving it back.
 */
class DatabaseOutageTest extends ProjectorTestCase {
    DatabaseOutageTest() {
        super("projector_outage");
    }

    @Test
    void aBatchTheDatabaseCannotTakeIsRetriedUntilItLands() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope first = ws.evaluation("docs.read");
        publisher.publish(ws.created("Outage"), first);
        eventually().until(() -> auditRows(first), count -> count == 1);
        double failedBefore = projector.failedBatches();

        jdbc.execute("alter table audit_log rename to audit_log_away");
        List<EventEnvelope> duringOutage = List.of(ws.evaluation("docs.search"), ws.evaluation("docs.write"));
        publisher.publish(duringOutage);
        eventually().until(projector::failedBatches, failed -> failed > failedBefore);
        jdbc.execute("alter table audit_log_away rename to audit_log");

        for (EventEnvelope evaluation : duringOutage) {
            eventually().until(() -> auditRows(evaluation), count -> count == 1);
        }
        assertThat(auditRows(first)).isOne();
    }

    private long auditRows(EventEnvelope evaluation) {
        return jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                DerivedIds.auditLogId(evaluation.commandId()));
    }
}
