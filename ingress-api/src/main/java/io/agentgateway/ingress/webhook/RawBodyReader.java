package io.agentgateway.ingress.webhook;

import java.util.OptionalLong;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * The body exactly as received, for the HMAC: bytes, never a parsed and re-written document. The
 * limit is enforced while reading (a lying or absent Content-Length cannot make it buffer more).
 * Webhooks are JSON (spec 6: content type {@code application/json}); a missing Content-Type is read
 * as JSON, any other is refused.
 */
final class RawBodyReader {
    private static final byte[] EMPTY = new byte[0];

    private final int maxBytes;

    RawBodyReader(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    Mono<byte[]> read(ServerRequest request) {
        MediaType contentType = request.headers().contentType().orElse(null);
        if (contentType != null && !MediaType.APPLICATION_JSON.isCompatibleWith(contentType)) {
            return Mono.error(WebhookRejection.unsupportedMediaType());
        }
        OptionalLong declared = request.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            return Mono.error(WebhookRejection.tooLarge(maxBytes));
        }
        return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), maxBytes)
                .map(RawBodyReader::bytes)
                .defaultIfEmpty(EMPTY)
                .onErrorMap(DataBufferLimitException.class, e -> WebhookRejection.tooLarge(maxBytes));
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
