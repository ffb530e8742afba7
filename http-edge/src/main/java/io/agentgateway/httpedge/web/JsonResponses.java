package io.agentgateway.httpedge.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** Writes response bodies with {@link IngressJson#RESPONSES}: one JSON dialect for every endpoint. */
public final class JsonResponses {

    /** The error body of every endpoint: {@code {ok:false, error, correlationId}}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ErrorBody(boolean ok, String error, String correlationId) {
        public static ErrorBody of(String error, String correlationId) {
            return new ErrorBody(false, error, correlationId);
        }
    }

    /** {@code {ok:true}}. */
    public record Ok(boolean ok) {
        public static final Ok INSTANCE = new Ok(true);
    }

    private JsonResponses() {}

    public static Mono<ServerResponse> ok(Object body) {
        return status(HttpStatus.OK, body);
    }

    public static Mono<ServerResponse> created(Object body) {
        return status(HttpStatus.CREATED, body);
    }

    /**
     * A 200 whose body shows a secret once (a generated webhook secret): {@code Cache-Control: no-store},
     * so no cache between the admin and the gateway keeps a copy.
     */
    public static Mono<ServerResponse> okShowingASecret(Object body) {
        return showingASecret(HttpStatus.OK, body);
    }

    /** A 201 whose body shows a secret once (an API key): {@code Cache-Control: no-store}, as {@link #okShowingASecret}. */
    public static Mono<ServerResponse> createdShowingASecret(Object body) {
        return showingASecret(HttpStatus.CREATED, body);
    }

    private static Mono<ServerResponse> showingASecret(HttpStatus status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header(HttpHeaders.PRAGMA, "no-cache")
                .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(body));
    }

    public static Mono<ServerResponse> status(HttpStatus status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(body));
    }
}
