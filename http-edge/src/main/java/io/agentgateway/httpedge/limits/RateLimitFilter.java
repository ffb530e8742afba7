package io.agentgateway.httpedge.limits;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.auth.ApiKeyScheme;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.ApiException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Charges every request that carries a well-formed API key to the {@link RequestRateLimits} before any
 * route runs, so that a refused request costs no command, no database read and no upstream call. A
 * successful answer marks the key as real (see {@link RequestRateLimits}). Requests without an API key
 * (the admin API's user JWTs, webhooks, OAuth callbacks) are not charged here.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class RateLimitFilter implements WebFilter {
    private static final Set<ApiKeyScheme> ALL_SCHEMES = EnumSet.allOf(ApiKeyScheme.class);
    /** Set by the proxy on every answer the decision stream decided (forwarded, blocked, held): the key passed its check. */
    private static final String FORWARDED_MARK = "X-Gateway-Audit-Log-Id";

    private final RequestRateLimits limits;

    public RateLimitFilter(RequestRateLimits limits) {
        this.limits = limits;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Optional<ApiKeyCredential> key = apiKey(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        if (key.isEmpty()) {
            return chain.filter(exchange);
        }
        try {
            limits.charge(key.get(), 1);
        } catch (ApiException limited) {
            return Mono.error(limited);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            HttpStatusCode status = response.getStatusCode();
            if (status != null && (status.is2xxSuccessful() || response.getHeaders().containsHeader(FORWARDED_MARK))) {
                limits.authenticated(key.get());
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    /** A key in any form an endpoint takes ({@link ApiKeyScheme}): one a route then refuses is charged all the same. */
    private static Optional<ApiKeyCredential> apiKey(String authorization) {
        return ApiKeyScheme.key(authorization, ALL_SCHEMES).flatMap(token -> ApiKeys.parseWorkspace(token)
                .map(workspace -> new ApiKeyCredential(workspace, ApiKeys.hash(token))));
    }
}
