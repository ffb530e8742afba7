package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.ErrorMessages;
import java.util.OptionalLong;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Reads a proxied request's body whole, as bytes, up to {@code gateway.proxy.max-body-bytes} (then
 * 413 {@code Request body too large}). Buffered on purpose: the exact bytes are sealed into the
 * evaluation as the held call, and nothing reaches the upstream before the decision anyway.
 */
final class ProxyRequestBody {
    private ProxyRequestBody() {}

    static Mono<byte[]> read(ServerRequest request, int maxBytes) {
        OptionalLong declared = request.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            return Mono.error(new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, ErrorMessages.BODY_TOO_LARGE));
        }
        // join fails with DataBufferLimitException past the limit, which the error handler answers with 413
        return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), maxBytes)
                .map(ProxyRequestBody::bytes)
                .defaultIfEmpty(new byte[0]);
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
