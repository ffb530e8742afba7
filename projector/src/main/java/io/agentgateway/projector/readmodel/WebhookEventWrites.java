package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.WebhookReceived;

/**
 * {@code webhook_events}: one immutable row per recorded webhook delivery, keyed by its derived id.
 * An envelope keyed by {@link ReceiveWebhook#NO_WORKSPACE} is a delivery that matched no workspace:
 * its row has no workspace.
 */
final class WebhookEventWrites {
    private WebhookEventWrites() {}

    private static final SqlStatement INSERT = SqlStatement.appendOnly("""
            insert into webhook_events (id, event_id, command_id, source, delivery_id, event_kind, action, workspace_id,
                processed, decision, audit_log_id, received_at, payload_excerpt, payload_truncated, payload_bytes)
            values (:id::uuid, :event_id::uuid, :command_id, :source, :delivery_id, :event_kind, :action,
                :webhook_workspace_id::uuid, :processed, :decision, :audit_log_id::uuid, :occurred_at, :payload_excerpt,
                :payload_truncated, :payload_bytes)
            on conflict (id) do nothing
            """);

    static Write received(EventEnvelope envelope, WebhookReceived event) {
        if (event.webhookEventId() == null || event.tool() == null || event.deliveryId() == null
                || event.eventKind() == null || event.action() == null) {
            throw new IllegalArgumentException("webhook_received without its id, source, delivery id or kind");
        }
        boolean unmatched = ReceiveWebhook.NO_WORKSPACE.equals(envelope.workspaceId());
        return new Write(INSERT, EnvelopeParams.of(envelope)
                .uuid("id", event.webhookEventId())
                .wire("source", event.tool(), Tool::wire)
                .text("delivery_id", event.deliveryId())
                .text("event_kind", event.eventKind())
                .text("action", event.action())
                .uuid("webhook_workspace_id", unmatched ? null : envelope.workspaceId())
                .bool("processed", event.processed() && !unmatched)
                .wire("decision", event.decision(), Decision::wire)
                .uuid("audit_log_id", event.auditLogId())
                .text("payload_excerpt", event.payloadExcerpt())
                .bool("payload_truncated", event.payloadTruncated())
                .integer("payload_bytes", event.payloadBytes())
                .source());
    }
}
