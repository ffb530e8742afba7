package io.agentgateway.httpedge.egress;

import io.agentgateway.egress.EgressPolicy;
import io.agentgateway.httpedge.web.ApiException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses, before anything else runs (no credential check, no command, no evaluation), every request that
 * carries the hop marker ({@value EgressPolicy#HOP_HEADER}) that this gateway puts on every request it
 * sends out: such a request came back to a gateway through a connection's URL, a relay or a balancer, and
 * serving it would evaluate (and forward) the same call again, without end. 508 Loop Detected.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class HopMarkerFilter implements WebFilter {
    static final String LOOP = "The request has already passed through an agent gateway (" + EgressPolicy.HOP_HEADER
            + "): a connection's URL points back at a gateway";

    private final Counter refused;

    public HopMarkerFilter(MeterRegistry meters) {
        this.refused = Counter.builder("gateway.egress.hop.refused")
                .description("Incoming requests refused because they carry the gateway's own hop marker").register(meters);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (exchange.getRequest().getHeaders().containsHeader(EgressPolicy.HOP_HEADER)) {
            refused.increment();
            return Mono.error(new ApiException(HttpStatus.LOOP_DETECTED, LOOP));
        }
        return chain.filter(exchange);
    }
}
