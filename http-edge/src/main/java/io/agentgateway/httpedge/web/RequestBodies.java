package io.agentgateway.httpedge.web;

import java.util.OptionalLong;
import java.util.function.Supplier;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * The one way a request body is read: whole, as bytes, never more than its limit. A declared Content-Length over the
 * limit is refused before a byte is read, and the limit holds while reading too, so a lying or absent Content-Length
 * cannot make the gateway buffer more. Each entry point judges the bytes itself (JSON, the proxy's exact bytes, the
 * webhook's signed bytes, a JSON-RPC message).
 */
public final class RequestBodies {
    private static final byte[] EMPTY = new byte[0];

    private RequestBodies() {}

    /** The body's bytes (empty when it has none); over {@code maxBytes}: 413 {@code Request body too large}. */
    public static Mono<byte[]> bytes(ServerRequest request, int maxBytes) {
        return bytes(request, maxBytes, () -> new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, ErrorMessages.BODY_TOO_LARGE));
    }

    /** As {@link #bytes(ServerRequest, int)}, with the entry point's own refusal of a body over the limit. */
    public static Mono<byte[]> bytes(ServerRequest request, int maxBytes, Supplier<? extends RuntimeException> tooLarge) {
        OptionalLong declared = request.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            return Mono.error(tooLarge);
        }
        return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), maxBytes)
                .map(RequestBodies::take)
                .defaultIfEmpty(EMPTY)
                .onErrorMap(DataBufferLimitException.class, e -> tooLarge.get());
    }

    private static byte[] take(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
