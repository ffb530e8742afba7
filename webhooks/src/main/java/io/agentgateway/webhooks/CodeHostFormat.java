package io.agentgateway.webhooks;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The code host (header names from its profile): {@code X-Code-Host-Signature-256: sha256=<hex>} (or the real
 * code host's {@code X-Hub-Signature-256}), delivery id and event kind in {@code X-Code-Host-Delivery} /
 * {@code X-GitHub-Delivery} and {@code X-Code-Host-Event} / {@code X-GitHub-Event}. A request signed
 * only with the legacy SHA-1 header ({@code X-Hub-Signature: sha1=...}) is refused: SHA-1 is not
 * accepted. Matched by {@code repository.full_name} against {@code config.repos} or
 * {@code organization.login} against {@code config.org}.
 */
final class CodeHostFormat implements WebhookFormat {
    private static final ToolProfile.Webhooks HEADERS = ToolProfiles.of(Tool.CODE_HOST).webhooks().orElseThrow();
    static final String SIGNATURE = HEADERS.signature().neutral();
    static final String DELIVERY = HEADERS.delivery().neutral();
    static final String EVENT = HEADERS.event().neutral();
    private static final String VENDOR_SIGNATURE = HEADERS.signature().vendor();
    /** The legacy SHA-1 headers, refused by name rather than taken for a missing signature. */
    private static final String[] SHA1_SIGNATURES = {"X-Code-Host-Signature", "X-Hub-Signature"};
    private static final String VENDOR_DELIVERY = HEADERS.delivery().vendor();
    private static final String VENDOR_EVENT = HEADERS.event().vendor();
    private static final String SHA256_PREFIX = "sha256=";

    @Override
    public Tool tool() {
        return Tool.CODE_HOST;
    }

    @Override
    public byte[] signature(HttpHeaders headers) {
        String value = WebhookFormat.first(headers, SIGNATURE, VENDOR_SIGNATURE);
        if (value == null) {
            throw WebhookFormat.first(headers, SHA1_SIGNATURES) != null
                    ? WebhookRejection.sha1Only(SIGNATURE)
                    : WebhookRejection.missingSignature(SIGNATURE);
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("sha1=")) {
            throw WebhookRejection.sha1Only(SIGNATURE);
        }
        if (!lower.startsWith(SHA256_PREFIX)) {
            throw WebhookRejection.malformedSignature();
        }
        return SignatureHex.decode(value.substring(SHA256_PREFIX.length()));
    }

    @Override
    public String deliveryId(HttpHeaders headers) {
        return WebhookFormat.requiredDeliveryId(headers, DELIVERY, VENDOR_DELIVERY);
    }

    @Override
    public List<WebhookCandidate> candidates(WebhookCandidateIndex connections, ObjectNode payload) {
        return connections.codeHost(WebhookFormat.text(payload, "repository", "full_name"),
                WebhookFormat.text(payload, "organization", "login"));
    }

    @Override
    public void checkFreshness(ObjectNode payload, Instant now) {
        // the code host's payloads carry no signed timestamp; replays are caught by the delivery id
    }

    @Override
    public ReceiveWebhook command(HttpHeaders headers, String deliveryId, ObjectNode payload) {
        String kind = WebhookFormat.first(headers, EVENT, VENDOR_EVENT);
        if (kind == null) {
            throw WebhookRejection.missingHeader(EVENT);
        }
        String repository = WebhookFormat.text(payload, "repository", "full_name");
        String organization = WebhookFormat.text(payload, "organization", "login");
        JsonNode action = payload.get("action");
        return new ReceiveWebhook(Tool.CODE_HOST, deliveryId, kind,
                action != null && action.isString() ? action.asString() : null,
                WebhookFormat.text(payload, "sender", "login"),
                repository != null ? "repository" : organization != null ? "organization" : null,
                repository != null ? repository : organization,
                payload);
    }
}
