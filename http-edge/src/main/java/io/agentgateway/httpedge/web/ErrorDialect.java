package io.agentgateway.httpedge.web;

import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;

/**
 * A route's own shape for its error bodies: the proxy answers in its tool's error dialect, so that the
 * tool's SDK shows the gateway's text rather than "Unknown error". The status, the headers and the
 * {@code error} text stay {@link JsonErrorWebExceptionHandler}'s; a dialect only shapes the body, and keeps
 * the gateway's {@code ok:false} and {@code correlationId} in it.
 */
public interface ErrorDialect {

    /** The error body for this exchange, or empty for the gateway's own {@code {ok:false, error, correlationId}}. */
    Optional<Object> body(ServerWebExchange exchange, HttpStatus status, String error, String correlationId);
}
