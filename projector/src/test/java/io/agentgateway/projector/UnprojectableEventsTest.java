package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.projector.consume.SkipReason;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Records that cannot be projected are skipped and counted, and never hold up the partition: the
 * events behind them still land.
 */
class UnprojectableEventsTest extends ProjectorTestCase {
    UnprojectableEventsTest() {
        super("projector_unprojectable");
    }

    @Test
    void unreadableRecordsAreSkippedAndLaterEventsStillProject() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Unreadable"));
        String unknownType = GatewayJson.MAPPER.writeValueAsString(ws.evaluation("docs.read"))
                .replace("\"type\":\"action_evaluated\"", "\"type\":\"event_of_the_future\"");
        assertThat(unknownType).contains("event_of_the_future");
        double skippedBefore = projector.skipped(SkipReason.UNREADABLE);

        publisher.publishRaw(ws.workspaceId, new byte[] {0, 1, 2, (byte) 0xff, '{'});
        publisher.publishRaw(ws.workspaceId, unknownType.getBytes(StandardCharsets.UTF_8));
        publisher.publishRaw(ws.workspaceId, null);
        EventEnvelope behind = ws.evaluation("docs.search");
        publisher.publish(behind);

        awaitAuditRow(behind);
        assertThat(projector.skipped(SkipReason.UNREADABLE)).isGreaterThanOrEqualTo(skippedBefore + 3);
    }

    @Test
    void anEventOfANewerSchemaVersionIsSkipped() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope current = ws.evaluation("docs.read");
        EventEnvelope newer = new EventEnvelope(EventEnvelope.CURRENT_VERSION + 1, current.eventId(), current.workspaceId(),
                current.commandId(), current.correlationId(), current.occurredAt(), current.actor(),
                current.workspaceVersion(), current.policySetVersion(), current.event());
        double skippedBefore = projector.skipped(SkipReason.UNSUPPORTED_SCHEMA_VERSION);
        EventEnvelope behind = ws.evaluation("docs.search");
        publisher.publish(newer, behind);

        awaitAuditRow(behind);
        assertThat(auditRows(newer)).isZero();
        assertThat(projector.skipped(SkipReason.UNSUPPORTED_SCHEMA_VERSION)).isGreaterThanOrEqualTo(skippedBefore + 1);
    }

    @Test
    void anEventWithAMalformedIdIsSkipped() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope malformed = ws.record(commandId -> new ActionEvaluated("not-a-uuid", Tool.DOCS, "docs.read",
                RiskLevel.LOW, RiskLevel.LOW, RiskClassification.CALLER_SUPPLIED, false, Decision.ALLOW, "ok", null,
                null, null, null, null, null, null, null, ActionSource.EVALUATE, null, false, 0));
        double skippedBefore = projector.skipped(SkipReason.INVALID);
        EventEnvelope behind = ws.evaluation("docs.search");
        publisher.publish(malformed, behind);

        awaitAuditRow(behind);
        assertThat(jdbc.queryForObject("select count(*) from audit_log where command_id = ?", Long.class,
                malformed.commandId())).isZero();
        assertThat(projector.skipped(SkipReason.INVALID)).isGreaterThanOrEqualTo(skippedBefore + 1);
    }

    @Test
    void anEventPostgresRefusesIsSkippedWhileTheRestOfItsBatchLands() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String firstKey = UUID.randomUUID().toString();
        String secondKey = UUID.randomUUID().toString();
        String hash = "hash-" + firstKey;
        publisher.publish(ws.created("Refused"),
                ws.stateChange(c -> new ApiKeyIssued(firstKey, "first", hash, Set.of(Scope.EVALUATE), null)));
        eventually().until(() -> jdbc.queryForObject("select count(*) from api_keys where key_id = ?::uuid", Long.class,
                firstKey), count -> count == 1);
        double skippedBefore = projector.skipped(SkipReason.REJECTED_BY_DATABASE);

        // one send: the three records travel, and are most likely polled, together
        EventEnvelope before = ws.evaluation("docs.read");
        EventEnvelope sameHash = ws.stateChange(c -> new ApiKeyIssued(secondKey, "second", hash, Set.of(Scope.MCP), null));
        EventEnvelope after = ws.evaluation("docs.search");
        publisher.publish(before, sameHash, after);

        awaitAuditRow(after);
        assertThat(auditRows(before)).isOne();
        assertThat(jdbc.queryForObject("select count(*) from api_keys where key_id = ?::uuid", Long.class, secondKey))
                .isZero();
        assertThat(projector.skipped(SkipReason.REJECTED_BY_DATABASE)).isGreaterThanOrEqualTo(skippedBefore + 1);
    }

    private void awaitAuditRow(EventEnvelope evaluation) {
        eventually().until(() -> auditRows(evaluation), count -> count == 1);
    }

    private long auditRows(EventEnvelope evaluation) {
        return jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                DerivedIds.auditLogId(evaluation.commandId()));
    }
}
