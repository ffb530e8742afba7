package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.decisioncore.state.Wildcards;
import io.agentgateway.schemas.PolicyMatch;
import java.util.Collection;
import java.util.List;

/**
 * Whether a {@link PolicyMatch} holds for a request. An empty or absent field matches anything; a
 * field that is set does not match a request that lacks the value (a policy for agent "deploy-*"
 * does not apply to an anonymous call). Actions, agent ids and resource ids are {@code *} globs.
 */
final class PolicyMatcher {

    public boolean matches(PolicyMatch match, ActionRequest request) {
        if (match == null) {
            return true;
        }
        return member(match.tools(), request.tool())
                && glob(match.actions(), request.action())
                && member(match.riskLevels(), request.riskLevel())
                && glob(match.agentIds(), request.agentId())
                && member(match.resourceTypes(), request.resourceType())
                && glob(match.resourceIds(), request.resourceId())
                && member(match.sources(), request.source())
                // a policy may ask for an identity the key is bound to; no agent: no identity, no match
                && (match.agentIdentity() == null || match.agentIdentity() == request.agentIdentity());
    }

    private static <T> boolean member(Collection<T> allowed, T value) {
        return allowed == null || allowed.isEmpty() || (value != null && allowed.contains(value));
    }

    private static boolean glob(List<String> patterns, String value) {
        if (patterns == null || patterns.isEmpty()) {
            return true;
        }
        if (value == null) {
            return false;
        }
        for (String pattern : patterns) {
            if (pattern != null && glob(pattern, value)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link Wildcards#matches}: a key's agent pattern and a policy's patterns are read the same way. */
    static boolean glob(String pattern, String value) {
        return Wildcards.matches(pattern, value);
    }
}
