package io.agentgateway.httpedge.web;

import java.util.UUID;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every request a correlation id: the caller's {@code X-Correlation-Id} when it is a uuid
 * (anything else could be used to forge or pollute audit trails), otherwise a new one. It is echoed
 * as a response header, carried by the command and written into every error body.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class CorrelationIds implements WebFilter {
    public static final String HEADER = "X-Correlation-Id";
    private static final String ATTRIBUTE = CorrelationIds.class.getName();

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String id = Uuids.canonical(exchange.getRequest().getHeaders().getFirst(HEADER))
                .orElseGet(() -> UUID.randomUUID().toString());
        exchange.getAttributes().put(ATTRIBUTE, id);
        exchange.getResponse().getHeaders().set(HEADER, id);
        return chain.filter(exchange);
    }

    public static String of(ServerRequest request) {
        return of(request.exchange());
    }

    /** The request's id; a new one if the filter did not run (an error raised before it). */
    public static String of(ServerWebExchange exchange) {
        String id = exchange.getAttribute(ATTRIBUTE);
        return id != null ? id : UUID.randomUUID().toString();
    }
}
