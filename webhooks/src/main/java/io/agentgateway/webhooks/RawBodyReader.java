package io.agentgateway.webhooks;

import io.agentgateway.httpedge.web.RequestBodies;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * The body exactly as received, for the HMAC: bytes, never a parsed and re-written document. The
 * limit is enforced while reading (a lying or absent Content-Length cannot make it buffer more).
 * Webhooks are JSON (spec 6: content type {@code application/json}); a missing Content-Type is read
 * as JSON, any other is refused.
 */
final class RawBodyReader {
    private final int maxBytes;

    RawBodyReader(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    Mono<byte[]> read(ServerRequest request) {
        MediaType contentType = request.headers().contentType().orElse(null);
        if (contentType != null && !MediaType.APPLICATION_JSON.isCompatibleWith(contentType)) {
            return Mono.error(WebhookRejection.unsupportedMediaType());
        }
        return RequestBodies.bytes(request, maxBytes, () -> WebhookRejection.tooLarge(maxBytes));
    }
}
