package io.agentgateway.adminapi.policies;

import io.agentgateway.decisioncore.condition.ConditionLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.decision.conditions.*}: the bounds of policy conditions, read here with the decision stream's own
 * keys and defaults so that the admin API checks a condition (its 400), tests a draft and back-tests exactly as the
 * stream decides (docs/policies.md, "Limits").
 */
@ConfigurationProperties("gateway.decision.conditions")
public record ConditionProperties(
        @DefaultValue("4096") int maxExpressionChars,
        @DefaultValue("48") int maxNesting,
        @DefaultValue("1000") int maxIterations,
        @DefaultValue("65536") int maxArgumentsBytes) {

    public ConditionLimits limits() {
        return new ConditionLimits(maxExpressionChars, maxNesting, maxIterations, maxArgumentsBytes);
    }
}
