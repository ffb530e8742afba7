package io.agentgateway.httpedge.web;

import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Turns every error, expected or not, into {@code {ok:false, error, correlationId}} with the right
 * status. Runs before Boot's own error handler (order -1) so that no HTML page, no default error
 * attributes and never a stack trace reach a client; unexpected errors are logged here with the
 * correlation id so that the client's id finds the log line.
 */
@Component
@Order(-2)
public class JsonErrorWebExceptionHandler implements WebExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(JsonErrorWebExceptionHandler.class);
    /** The most of an unread request body read (and dropped) before an error answer; beyond it the connection closes. */
    static final long DRAIN_LIMIT_BYTES = 1 << 20;

    private record Outcome(HttpStatus status, String error, HttpHeaders headers) {}

    private final ObjectProvider<ErrorDialect> dialects;

    public JsonErrorWebExceptionHandler(ObjectProvider<ErrorDialect> dialects) {
        this.dialects = dialects;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ServerHttpResponse response = exchange.getResponse();
        String correlationId = CorrelationIds.of(exchange);
        if (ClientConnections.isGone(response)) {
            // the client went away, or the connection was closed under the request (a timeout of the
            // HTTP edge, a malformed chunk the edge answered itself): nobody to answer, nothing to log
            log.debug("[{}] connection closed before the answer: {}", correlationId, failure.toString());
            return Mono.empty();
        }
        if (response.isCommitted()) {
            return Mono.error(failure);
        }
        Outcome outcome = outcome(failure, correlationId);
        response.setStatusCode(outcome.status());
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        // a download that failed before its first byte (audit export) must not save the error as the file
        headers.remove(HttpHeaders.CONTENT_DISPOSITION);
        headers.set(CorrelationIds.HEADER, correlationId);
        headers.addAll(outcome.headers());
        byte[] body = IngressJson.RESPONSES.writeValueAsBytes(errorBody(exchange, outcome, correlationId));
        Mono<Void> answer = Mono.defer(() -> response.writeWith(Mono.just(response.bufferFactory().wrap(body))));
        if (outcome.status() == HttpStatus.PAYLOAD_TOO_LARGE) {
            // refused for its size: answer at once, read none of the rest, and close the connection
            // (its unread bytes cannot be told from the next request)
            headers.set(HttpHeaders.CONNECTION, "close");
            return answer;
        }
        // Answer only once the request has been read to its end. An error raised before the body was
        // read (a bad Authorization header, say) would otherwise complete the exchange while the
        // server still waits for the request's last chunk, and the next request on that keep-alive
        // connection could stall. A body already consumed (or failed) drains at once; one longer than
        // DRAIN_LIMIT_BYTES is not read further, and the connection is closed after the answer.
        AtomicLong drained = new AtomicLong();
        return exchange.getRequest().getBody()
                .takeWhile(buffer -> {
                    boolean within = drained.addAndGet(buffer.readableByteCount()) <= DRAIN_LIMIT_BYTES;
                    DataBufferUtils.release(buffer);
                    if (!within) {
                        headers.set(HttpHeaders.CONNECTION, "close");
                    }
                    return within;
                })
                .onErrorResume(alreadyConsumed -> Mono.empty())
                .then(answer);
    }

    /** The route's dialect of the error body ({@link ErrorDialect}), else the gateway's own. */
    private Object errorBody(ServerWebExchange exchange, Outcome outcome, String correlationId) {
        return dialects.orderedStream()
                .map(dialect -> dialect.body(exchange, outcome.status(), outcome.error(), correlationId))
                .flatMap(Optional::stream)
                .findFirst()
                .orElseGet(() -> JsonResponses.ErrorBody.of(outcome.error(), correlationId));
    }

    private Outcome outcome(Throwable failure, String correlationId) {
        if (failure instanceof TooManyRequests limited) {
            return new Outcome(limited.status(), limited.getMessage(), limited.headers());
        }
        if (failure instanceof ApiException api) {
            return new Outcome(api.status(), api.getMessage(), allowHeader(api.allowedMethods()));
        }
        if (failure instanceof DecisionServiceUnavailableException) {
            log.warn("[{}] failing closed with 503: {}", correlationId, describe(failure));
            return new Outcome(HttpStatus.SERVICE_UNAVAILABLE, ErrorMessages.UNAVAILABLE, HttpHeaders.EMPTY);
        }
        if (failure instanceof DecisionTimeoutException) {
            log.warn("[{}] failing closed with 504: {}", correlationId, failure.getMessage());
            return new Outcome(HttpStatus.GATEWAY_TIMEOUT, ErrorMessages.TIMED_OUT, HttpHeaders.EMPTY);
        }
        String readModelUnavailable = ReadModelFailures.whyUnavailable(failure);
        if (readModelUnavailable != null) {
            // PostgreSQL down or unreachable (the reads fail fast: Hikari's connection timeout), or its schema behind
            log.warn("[{}] read model {}, answering 503: {}", correlationId, readModelUnavailable,
                    ReadModelFailures.describe(failure));
            return new Outcome(HttpStatus.SERVICE_UNAVAILABLE, ErrorMessages.READ_MODEL_UNAVAILABLE, HttpHeaders.EMPTY);
        }
        if (failure instanceof DataBufferLimitException) {
            return new Outcome(HttpStatus.PAYLOAD_TOO_LARGE, ErrorMessages.BODY_TOO_LARGE, HttpHeaders.EMPTY);
        }
        if (failure instanceof InvalidMediaTypeException) {
            // RequestHeaderChecks refuses malformed Content-Type and Accept first; any other media type
            // header a framework class parses is the client's error all the same
            return new Outcome(HttpStatus.BAD_REQUEST, ErrorMessages.MALFORMED_HEADER, HttpHeaders.EMPTY);
        }
        if (ClientConnections.isReadTimeout(failure)) {
            return new Outcome(HttpStatus.REQUEST_TIMEOUT, ErrorMessages.REQUEST_TIMEOUT, HttpHeaders.EMPTY);
        }
        if (failure instanceof ResponseStatusException framework) {
            HttpStatus status = HttpStatus.resolve(framework.getStatusCode().value());
            if (status != null && status.is4xxClientError()) {
                return new Outcome(status, frameworkText(status), framework.getHeaders());
            }
        }
        log.error("[{}] unexpected error", correlationId, failure);
        return new Outcome(HttpStatus.INTERNAL_SERVER_ERROR, ErrorMessages.INTERNAL, HttpHeaders.EMPTY);
    }

    /** Fixed texts for the framework's own 4xx, so no internal detail leaks through its reasons. */
    private static String frameworkText(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> ErrorMessages.NOT_FOUND;
            case METHOD_NOT_ALLOWED -> ErrorMessages.METHOD_NOT_ALLOWED;
            case UNSUPPORTED_MEDIA_TYPE -> ErrorMessages.UNSUPPORTED_MEDIA_TYPE;
            case PAYLOAD_TOO_LARGE -> ErrorMessages.BODY_TOO_LARGE;
            default -> status.getReasonPhrase();
        };
    }

    private static HttpHeaders allowHeader(List<HttpMethod> allowed) {
        if (allowed.isEmpty()) {
            return HttpHeaders.EMPTY;
        }
        HttpHeaders headers = new HttpHeaders();
        headers.setAllow(new LinkedHashSet<>(allowed));
        return headers;
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure.getCause();
        return cause == null ? failure.getMessage() : failure.getMessage() + ": " + cause;
    }
}
