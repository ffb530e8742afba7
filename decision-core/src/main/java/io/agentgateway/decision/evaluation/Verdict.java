package io.agentgateway.decision.evaluation;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;

/** A decision with its human-readable reason and the policy that produced it (null for the gates and defaults). */
public record Verdict(Decision decision, String reason, Policy matchedPolicy) {

    public String matchedPolicyId() {
        return matchedPolicy == null ? null : matchedPolicy.id();
    }

    public String matchedPolicyName() {
        return matchedPolicy == null ? null : matchedPolicy.name();
    }
}
