package io.agentgateway.egress;

import reactor.netty.http.client.HttpClient;

/**
 * What every outbound HTTP client of the gateway gets: the egress policy as its resolver (each address
 * checked when connecting) and the hop marker header on every request.
 */
public final class EgressClients {
    private final EgressPolicy policy;
    private final EgressResolverGroup resolver;
    private final String hopId;

    public EgressClients(EgressPolicy policy, EgressResolverGroup resolver, String hopId) {
        this.policy = policy;
        this.resolver = resolver;
        this.hopId = hopId;
    }

    /**
     * Clients for this process's listeners and the given settings (what {@link EgressConfiguration} builds
     * from {@code gateway.egress.*}; for code and tests that run without a Spring context).
     */
    public static EgressClients of(java.util.List<String> allow, java.util.List<String> hosts, String hopId) {
        EgressPolicy policy = new EgressPolicy(allow, OwnListeners.PROCESS, java.util.List.of());
        return new EgressClients(policy, new EgressResolverGroup(policy, NameLookup.of(hosts)), hopId);
    }

    /** {@code client} with the policy's resolver and the hop marker. */
    public HttpClient apply(HttpClient client) {
        return client.resolver(resolver).headers(headers -> headers.set(EgressPolicy.HOP_HEADER, hopId));
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
