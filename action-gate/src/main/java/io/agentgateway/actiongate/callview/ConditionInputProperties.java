package io.agentgateway.actiongate.callview;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.conditions.*}: what the proxy and the MCP gate put in a command for policy conditions
 * (docs/policies.md).
 *
 * @param maxArgumentsBytes the largest arguments (compact JSON) carried whole; larger ones are left out with their
 *                          size, and a condition reading them fails closed (never a cut copy)
 * @param lookupTimeout     how long a lookup of a fact the request does not carry (a pull request's base branch, an
 *                          issue's labels) may take; past it the fact is absent (fail closed)
 */
@ConfigurationProperties("gateway.conditions")
public record ConditionInputProperties(
        @DefaultValue("65536") int maxArgumentsBytes,
        @DefaultValue("PT2S") Duration lookupTimeout) {

    public ConditionInputProperties {
        if (maxArgumentsBytes < 0) {
            throw new IllegalArgumentException("gateway.conditions.max-arguments-bytes must not be negative");
        }
        if (lookupTimeout.isZero() || lookupTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.conditions.lookup-timeout must be positive");
        }
    }
}
