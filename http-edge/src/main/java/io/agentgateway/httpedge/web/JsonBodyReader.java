package io.agentgateway.httpedge.web;

import io.agentgateway.gatewayclient.config.IngressProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a request body as one JSON object, enforcing {@code gateway.ingress.max-body-bytes} while
 * reading (a lying or absent Content-Length cannot make it buffer more). A Content-Type other than
 * JSON is refused with 415; a missing Content-Type is read as JSON, as most agent HTTP clients send
 * JSON without saying so.
 */
@Component
public class JsonBodyReader {
    private final int maxBytes;

    public JsonBodyReader(IngressProperties properties) {
        this.maxBytes = properties.maxBodyBytes();
    }

    public Mono<ObjectNode> readObject(ServerRequest request) {
        return read(request, Mono.error(() -> ApiException.badRequest(ErrorMessages.BODY_NOT_OBJECT)));
    }

    /** As {@link #readObject}, but no body at all reads as {@code {}}: for bodies whose every field is optional. */
    public Mono<ObjectNode> readOptionalObject(ServerRequest request) {
        return read(request, Mono.fromSupplier(() -> IngressJson.REQUESTS.createObjectNode()));
    }

    private Mono<ObjectNode> read(ServerRequest request, Mono<ObjectNode> whenEmpty) {
        MediaType contentType = request.headers().contentType().orElse(null);
        if (contentType != null && !isJson(contentType)) {
            return Mono.error(new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ErrorMessages.UNSUPPORTED_MEDIA_TYPE));
        }
        return RequestBodies.bytes(request, maxBytes)
                // a zero-length body is no body, however the client framed it
                .flatMap(bytes -> Mono.justOrEmpty(parseObject(bytes)))
                .switchIfEmpty(whenEmpty);
    }

    /** The object in the body, or null for a body of zero bytes. */
    private static ObjectNode parseObject(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        JsonNode node;
        try {
            node = IngressJson.REQUESTS.readTree(bytes);
        } catch (JacksonException e) {
            throw ApiException.badRequest(ErrorMessages.BODY_NOT_OBJECT);
        }
        if (node instanceof ObjectNode object) {
            BodyStringLimits.check(object);
            return object;
        }
        throw ApiException.badRequest(ErrorMessages.BODY_NOT_OBJECT);
    }

    private static boolean isJson(MediaType type) {
        return MediaType.APPLICATION_JSON.isCompatibleWith(type)
                || ("application".equals(type.getType()) && type.getSubtype().endsWith("+json"));
    }
}
