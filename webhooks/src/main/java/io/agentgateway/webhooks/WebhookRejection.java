package io.agentgateway.webhooks;

import io.agentgateway.httpedge.web.ApiException;
import org.springframework.http.HttpStatus;

/**
 * A webhook refused before anything reached the log: the status and text the sender sees, and the
 * reason the rejection counter is tagged with. The texts never say whether a workspace watches the
 * repository or organization: every signature that does not hold reads {@link #INVALID_SIGNATURE}.
 */
final class WebhookRejection extends ApiException {
    static final String INVALID_SIGNATURE = "Invalid webhook signature";

    private final String reason;

    private WebhookRejection(HttpStatus status, String message, String reason) {
        super(status, message);
        this.reason = reason;
    }

    String reason() {
        return reason;
    }

    static WebhookRejection tooLarge(int limit) {
        return new WebhookRejection(HttpStatus.PAYLOAD_TOO_LARGE, "Webhook body exceeds " + limit + " bytes", "too_large");
    }

    static WebhookRejection unsupportedMediaType() {
        return new WebhookRejection(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json",
                "unsupported_media_type");
    }

    static WebhookRejection missingSignature(String header) {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED, "Missing webhook signature (" + header + ")", "missing_signature");
    }

    static WebhookRejection sha1Only(String header) {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED,
                "SHA-1 webhook signatures are not accepted; sign with HMAC-SHA256 (" + header + ")", "sha1_signature");
    }

    static WebhookRejection malformedSignature() {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED, INVALID_SIGNATURE, "malformed_signature");
    }

    static WebhookRejection invalidSignature() {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED, INVALID_SIGNATURE, "invalid_signature");
    }

    /** Answered to a delivery that matched no workspace (it is recorded unprocessed), exactly as a bad signature is. */
    static WebhookRejection unmatched() {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED, INVALID_SIGNATURE, "unmatched");
    }

    static WebhookRejection missingHeader(String header) {
        return new WebhookRejection(HttpStatus.BAD_REQUEST, header + " header is required", "missing_header");
    }

    static WebhookRejection malformedBody() {
        return new WebhookRejection(HttpStatus.BAD_REQUEST, "Webhook body must be a JSON object", "malformed_body");
    }

    static WebhookRejection timestamp(String why) {
        return new WebhookRejection(HttpStatus.UNAUTHORIZED, why, "timestamp");
    }
}
