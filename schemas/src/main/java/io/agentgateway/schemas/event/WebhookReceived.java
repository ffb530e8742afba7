package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Tool;

/**
 * An inbound webhook delivery, recorded once per workspace and (source, delivery id). The projector
 * stores it in {@code webhook_events}; an envelope keyed by
 * {@link io.agentgateway.schemas.command.ReceiveWebhook#NO_WORKSPACE} is stored with no workspace.
 *
 * @param webhookEventId  derived from the command id (the row's id)
 * @param action          the action string policies saw, e.g. {@code pull_request.opened}
 * @param processed       whether it was evaluated against a workspace's policies; false when it
 *                        matched no workspace (spec 6 rule 3)
 * @param decision        the decision when processed, else null
 * @param auditLogId      the audit entry ({@link ActionEvaluated}) of the evaluation when processed, else null
 * @param payloadExcerpt  the payload as compact JSON cut to the audit excerpt limit
 */
public record WebhookReceived(
        String webhookEventId,
        Tool tool,
        String deliveryId,
        String eventKind,
        String action,
        boolean processed,
        Decision decision,
        String auditLogId,
        String payloadExcerpt,
        boolean payloadTruncated,
        int payloadBytes) implements DomainEvent {

    /** The same record with another payload excerpt (a stored outcome leaves it out and rebuilds it from the command). */
    public WebhookReceived withPayloadExcerpt(String excerpt, boolean truncated, int bytes) {
        return new WebhookReceived(webhookEventId, tool, deliveryId, eventKind, action, processed, decision, auditLogId,
                excerpt, truncated, bytes);
    }
}
