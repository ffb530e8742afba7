package io.agentgateway.webhooks;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The issue tracker (header names from its profile): {@code Issue-Tracker-Signature: <hex>} (or the real issue tracker's
 * {@code Linear-Signature}), delivery id in {@code Issue-Tracker-Delivery} / {@code Linear-Delivery};
 * the event kind is the payload's {@code type} ({@code Issue}, {@code Comment}, ...). The signed
 * payload's {@code webhookTimestamp} (milliseconds) must be present, at most {@code maxAge} old and at
 * most {@code maxFutureSkew} ahead (spec 5 rule 3, spec 8). Matched by {@code organizationId} and
 * {@code data.teamId}.
 */
final class IssueTrackerFormat implements WebhookFormat {
    private static final ToolProfile.Webhooks HEADERS = ToolProfiles.of(Tool.ISSUE_TRACKER).webhooks().orElseThrow();
    static final String SIGNATURE = HEADERS.signature().neutral();
    static final String DELIVERY = HEADERS.delivery().neutral();
    static final String EVENT = HEADERS.event().neutral();
    private static final String VENDOR_SIGNATURE = HEADERS.signature().vendor();
    private static final String VENDOR_DELIVERY = HEADERS.delivery().vendor();
    private static final String VENDOR_EVENT = HEADERS.event().vendor();

    private final Duration maxAge;
    private final Duration maxFutureSkew;

    IssueTrackerFormat(Duration maxAge, Duration maxFutureSkew) {
        this.maxAge = maxAge;
        this.maxFutureSkew = maxFutureSkew;
    }

    @Override
    public Tool tool() {
        return Tool.ISSUE_TRACKER;
    }

    @Override
    public byte[] signature(HttpHeaders headers) {
        String value = WebhookFormat.first(headers, SIGNATURE, VENDOR_SIGNATURE);
        if (value == null) {
            throw WebhookRejection.missingSignature(SIGNATURE);
        }
        return SignatureHex.decode(value.regionMatches(true, 0, "sha256=", 0, 7) ? value.substring(7) : value);
    }

    @Override
    public String deliveryId(HttpHeaders headers) {
        return WebhookFormat.requiredDeliveryId(headers, DELIVERY, VENDOR_DELIVERY);
    }

    @Override
    public List<WebhookCandidate> candidates(WebhookCandidateIndex connections, ObjectNode payload) {
        return connections.issueTracker(WebhookFormat.text(payload, "organizationId"),
                WebhookFormat.text(payload, "data", "teamId"));
    }

    @Override
    public void checkFreshness(ObjectNode payload, Instant now) {
        JsonNode stamp = payload.get("webhookTimestamp");
        if (stamp == null || !stamp.isIntegralNumber() || !stamp.canConvertToLong()) {
            throw WebhookRejection.timestamp("webhookTimestamp (milliseconds since the epoch) is required");
        }
        Instant sent = Instant.ofEpochMilli(stamp.asLong());
        if (sent.isBefore(now.minus(maxAge))) {
            throw WebhookRejection.timestamp("webhookTimestamp is older than " + maxAge.toMinutes() + " minutes");
        }
        if (sent.isAfter(now.plus(maxFutureSkew))) {
            throw WebhookRejection.timestamp("webhookTimestamp is in the future");
        }
    }

    @Override
    public ReceiveWebhook command(HttpHeaders headers, String deliveryId, ObjectNode payload) {
        String kind = WebhookFormat.text(payload, "type");
        if (kind == null) {
            kind = WebhookFormat.first(headers, EVENT, VENDOR_EVENT);
        }
        if (kind == null) {
            throw WebhookRejection.missingHeader(EVENT);
        }
        String team = WebhookFormat.text(payload, "data", "teamId");
        String organization = WebhookFormat.text(payload, "organizationId");
        // the agent is the actor's stable id, never its display name, which anyone can set to another's
        return new ReceiveWebhook(Tool.ISSUE_TRACKER, deliveryId, kind, WebhookFormat.text(payload, "action"),
                WebhookFormat.text(payload, "actor", "id"),
                team != null ? "team" : organization != null ? "organization" : null,
                team != null ? team : organization,
                payload);
    }
}
