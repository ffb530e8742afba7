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
