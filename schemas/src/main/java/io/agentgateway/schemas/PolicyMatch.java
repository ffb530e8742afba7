package io.agentgateway.schemas;

import java.util.List;
import java.util.Set;

/**
 * What a policy applies to. Every field is optional; an empty or absent field matches anything.
 * {@code actions}, {@code agentIds} and {@code resourceIds} are globs where {@code *} matches any run
 * of characters (so {@code pull_request.*} matches {@code pull_request.merge}).
 */
public record PolicyMatch(
        Set<Tool> tools,
        List<String> actions,
        Set<RiskLevel> riskLevels,
        List<String> agentIds,
        List<String> resourceTypes,
        List<String> resourceIds,
        Set<ActionSource> sources) {

    public static PolicyMatch any() {
        return new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
    }
}
