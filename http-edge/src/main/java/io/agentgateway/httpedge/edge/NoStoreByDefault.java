package io.agentgateway.httpedge.edge;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * {@code Cache-Control: no-store} on every answer of the gateway's own that does not say otherwise: they
 * are per caller and often sensitive (keys and secrets shown once, audit rows, decisions), and no cache
 * between a client and the gateway should keep one. The proxy's answers are the upstream's, headers
 * included, and are left as they are.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
public class NoStoreByDefault implements WebFilter {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!exchange.getRequest().getPath().pathWithinApplication().value().startsWith(ProxyRequestProperties.PATH_PREFIX)) {
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                if (!response.getHeaders().containsHeader(HttpHeaders.CACHE_CONTROL)) {
                    response.getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-store");
                }
                return Mono.empty();
            });
        }
        return chain.filter(exchange);
    }
}
