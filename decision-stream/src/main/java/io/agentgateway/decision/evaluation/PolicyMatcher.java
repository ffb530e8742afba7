package io.agentgateway.decision.evaluation;

import io.agentgateway.schemas.PolicyMatch;
import java.util.Collection;
import java.util.List;

/**
 * Whether a {@link PolicyMatch} holds for a request. An empty or absent field matches anything; a
 * field that is set does not match a request that lacks the value (a policy for agent "deploy-*"
 * does not apply to an anonymous call). Actions, agent ids and resource ids are {@code *} globs.
 */
public final class PolicyMatcher {

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
                // a policy may ask for an identity the key is bound to (issue 16); no agent: no identity, no match
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

    /**
     * Whether {@code value} matches {@code pattern}, where {@code *} is any run of characters (also none) and
     * everything else is literal. Greedy with one backtrack point, linear for the patterns policies use.
     */
    static boolean glob(String pattern, String value) {
        int p = 0;
        int v = 0;
        int star = -1;
        int resume = 0;
        while (v < value.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = v;
            } else if (p < pattern.length() && pattern.charAt(p) == value.charAt(v)) {
                p++;
                v++;
            } else if (star >= 0) {
                p = star + 1;
                v = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
