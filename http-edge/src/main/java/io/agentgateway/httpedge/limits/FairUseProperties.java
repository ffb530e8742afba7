package io.agentgateway.httpedge.limits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.limits.*}: request rates of the agent endpoints (those called with an API key:
 * evaluate-action, the MCP gate, the status endpoint, the proxy), as token buckets. A bucket holds
 * {@code burst} requests and refills at {@code rate} per second; a request that finds it empty gets 429
 * with {@code Retry-After}. A rate of 0 turns that limit off. The buckets live in this ingress instance:
 * with N replicas behind a balancer a caller gets up to N times the rate.
 *
 * @param keyRate         requests per second one API key may make (sustained)
 * @param keyBurst        requests one API key may make at once
 * @param workspaceRate   requests per second the keys of one workspace may make together
 * @param workspaceBurst  requests the keys of one workspace may make at once
 */
@ConfigurationProperties("gateway.limits")
public record FairUseProperties(
        @DefaultValue("50") int keyRate,
        @DefaultValue("100") int keyBurst,
        @DefaultValue("200") int workspaceRate,
        @DefaultValue("400") int workspaceBurst) {

    public FairUseProperties {
        if (keyRate < 0 || workspaceRate < 0) {
            throw new IllegalArgumentException("gateway.limits.key-rate and workspace-rate must not be negative (0: no limit)");
        }
        if (keyRate > 0 && keyBurst < 1 || workspaceRate > 0 && workspaceBurst < 1) {
            throw new IllegalArgumentException("gateway.limits.key-burst and workspace-burst must be at least 1");
        }
    }
}
