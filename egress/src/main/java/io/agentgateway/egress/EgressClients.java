package io.agentgateway.egress;

import io.agentgateway.gatewaytracing.GatewayTracing;
import java.util.List;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.netty.http.client.HttpClient;

/**
 * What every outbound HTTP client of the gateway gets: the egress policy as its resolver (each address
 * checked when connecting) and the hop marker header on every request; and, for a WebClient, its client spans
 * ({@link #spans}) while tracing is on.
 */
public final class EgressClients {
    private final EgressPolicy policy;
    private final EgressResolverGroup resolver;
    private final String hopId;
    private final GatewayTracing tracing;

    public EgressClients(EgressPolicy policy, EgressResolverGroup resolver, String hopId) {
        this(policy, resolver, hopId, GatewayTracing.disabled());
    }

    public EgressClients(EgressPolicy policy, EgressResolverGroup resolver, String hopId, GatewayTracing tracing) {
        this.policy = policy;
        this.resolver = resolver;
        this.hopId = hopId;
        this.tracing = tracing;
    }

    /**
     * Clients for this process's listeners and the given settings (what {@link EgressConfiguration} builds
     * from {@code gateway.egress.*}; for code and tests that run without a Spring context).
     */
    public static EgressClients of(List<String> allow, List<String> hosts, String hopId) {
        EgressPolicy policy = new EgressPolicy(allow, OwnListeners.PROCESS, List.of());
        return new EgressClients(policy, new EgressResolverGroup(policy, NameLookup.of(hosts)), hopId);
    }

    /** {@code client} with the policy's resolver and the hop marker. */
    public HttpClient apply(HttpClient client) {
        return client.resolver(resolver).headers(headers -> headers.set(EgressPolicy.HOP_HEADER, hopId));
    }

    /**
     * A WebClient filter making a client span of each call to {@code upstream} (proxy, mcp, oauth, held_call) inside a
     * traced request; nothing while tracing is off.
     */
    public ExchangeFilterFunction spans(String upstream) {
        return new UpstreamSpans(tracing, upstream);
    }

    /** This process's tracing (off unless configured): for the clients that are not WebClients (the chat webhook). */
    public GatewayTracing tracing() {
        return tracing;
    }

    public EgressPolicy policy() {
        return policy;
    }

    public EgressResolverGroup resolver() {
        return resolver;
    }

    public String hopId() {
        return hopId;
    }
}
