package io.agentgateway.webhooks;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.node.ObjectNode;

/**
 * What differs between the two senders: header names (the spec's neutral names first, then the real
 * vendor's), the signature encoding, how a payload names the workspace, and freshness rules. Every
 * method that reads headers throws a {@link WebhookRejection} for what is missing or malformed.
 */
interface WebhookFormat {

    Tool tool();

    /** The HMAC bytes the sender claims. */
    byte[] signature(HttpHeaders headers);

    String deliveryId(HttpHeaders headers);

    /** The connections the payload names (read before verification, trusted only after it). */
    List<WebhookCandidate> candidates(WebhookCandidateIndex connections, ObjectNode payload);

    /** Refuses a verified payload that is too old or too far ahead; the code host has no rule. */
    void checkFreshness(ObjectNode payload, Instant now);

    ReceiveWebhook command(HttpHeaders headers, String deliveryId, ObjectNode payload);

    /** The first of the headers that is present, or null. */
    static String first(HttpHeaders headers, String... names) {
        for (String name : names) {
            String value = headers.getFirst(name);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return null;
    }

    /** The delivery id under the neutral header or the vendor's; missing → rejected naming the neutral one. */
    static String requiredDeliveryId(HttpHeaders headers, String neutral, String vendor) {
        String value = first(headers, neutral, vendor);
        if (value == null) {
            throw WebhookRejection.missingHeader(neutral);
        }
        return value;
    }

    /** A text field of a JSON object, or null. */
    static String text(ObjectNode node, String... path) {
        tools.jackson.databind.JsonNode current = node;
        for (String field : path) {
            if (current == null || !current.isObject()) {
                return null;
            }
            current = current.get(field);
        }
        return current != null && current.isString() && !current.asString().isBlank() ? current.asString() : null;
    }
}
