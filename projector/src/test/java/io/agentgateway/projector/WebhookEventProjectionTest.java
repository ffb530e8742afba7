package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.WebhookReceived;
import java.sql.Timestamp;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** webhook_events: one row per recorded delivery, with no workspace when it matched none, never twice. */
class WebhookEventProjectionTest extends ProjectorTestCase {

    WebhookEventProjectionTest() {
        super("projector_webhook_events");
    }

    @Test
    void matchedAndUnmatchedDeliveriesLandOnceEach() {
        WorkspaceEvents ws = new WorkspaceEvents();
        WorkspaceEvents nobody = new WorkspaceEvents(ReceiveWebhook.NO_WORKSPACE);
        EventEnvelope matched = ws.record(c -> new WebhookReceived(DerivedIds.webhookEventId(c), Tool.CODE_HOST, "gh-1",
                "pull_request", "pull_request.opened", true, Decision.BLOCK, DerivedIds.auditLogId(c),
                "{\"action\":\"opened\"}", false, 19));
        EventEnvelope unmatched = nobody.record(c -> new WebhookReceived(DerivedIds.webhookEventId(c), Tool.ISSUE_TRACKER,
                "lin-1", "Issue", "issue.create", false, null, null, "{\"type\":\"Issue\",\"da", true, 5000));
        publisher.publish(ws.created("Hooks"), matched, unmatched, matched, unmatched);

        String matchedId = ((WebhookReceived) matched.event()).webhookEventId();
        String unmatchedId = ((WebhookReceived) unmatched.event()).webhookEventId();
        eventually().until(() -> jdbc.queryForObject("select count(*) from webhook_events where id in (?::uuid, ?::uuid)",
                Long.class, matchedId, unmatchedId), count -> count == 2);

        Map<String, Object> row = jdbc.queryForMap("""
                select source, delivery_id, event_kind, action, workspace_id::text as workspace_id, processed, decision,
                       audit_log_id::text as audit_log_id, received_at, payload_excerpt, payload_truncated, payload_bytes
                  from webhook_events where id = ?::uuid""", matchedId);
        assertThat(row).contains(entry("source", "code_host"), entry("delivery_id", "gh-1"),
                entry("event_kind", "pull_request"), entry("action", "pull_request.opened"),
                entry("workspace_id", ws.workspaceId), entry("processed", true), entry("decision", "block"),
                entry("audit_log_id", DerivedIds.auditLogId(matched.commandId())),
                entry("received_at", Timestamp.from(matched.occurredAt())), entry("payload_excerpt", "{\"action\":\"opened\"}"),
                entry("payload_truncated", false), entry("payload_bytes", 19));

        Map<String, Object> none = jdbc.queryForMap("""
                select source, workspace_id, processed, decision, payload_truncated from webhook_events where id = ?::uuid""",
                unmatchedId);
        assertThat(none).containsExactly(entry("source", "issue_tracker"), entry("workspace_id", null),
                entry("processed", false), entry("decision", null), entry("payload_truncated", true));
    }
}
