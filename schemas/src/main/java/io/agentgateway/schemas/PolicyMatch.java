package io.agentgateway.schemas;

import java.util.List;
import java.util.Set;

/**
 * What a policy applies to. Every field is optional; an empty or absent field matches anything.
 * {@code actions}, {@code agentIds} and {@code resourceIds} are globs where {@code *} matches any run
 * of characters (so {@code pull_request.*} matches {@code pull_request.merge}). {@code agentIdentity}:
 * {@code bound} matches only evaluations whose agent id the API key is bound to, {@code asserted} only those whose
 * agent id the caller merely named; null matches any (an evaluation without an agent id has no identity, and a set
 * value never matches it).
 */
public record PolicyMatch(
        Set<Tool> tools,
        List<String> actions,
        Set<RiskLevel> riskLevels,
        List<String> agentIds,
        List<String> resourceTypes,
        List<String> resourceIds,
        Set<ActionSource> sources,
        AgentIdentity agentIdentity) {

    /** Without an identity condition (also the form written before policies could ask for one). */
    public PolicyMatch(Set<Tool> tools, List<String> actions, Set<RiskLevel> riskLevels, List<String> agentIds,
                       List<String> resourceTypes, List<String> resourceIds, Set<ActionSource> sources) {
        this(tools, actions, riskLevels, agentIds, resourceTypes, resourceIds, sources, null);
    }

    public static PolicyMatch any() {
        return new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of(), null);
    }
}
