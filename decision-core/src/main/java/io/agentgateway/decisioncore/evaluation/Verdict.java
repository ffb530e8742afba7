package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.schemas.ConditionError;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import java.util.List;

/**
 * A decision with its human-readable reason and the policy that produced it (null for the gates and defaults), and
 * the policy conditions that could not be evaluated on the way to it (each with what the fail-closed rule made of it).
 */
public record Verdict(Decision decision, String reason, Policy matchedPolicy, List<ConditionError> conditionErrors) {

    public Verdict {
        conditionErrors = conditionErrors == null ? List.of() : List.copyOf(conditionErrors);
    }

    public Verdict(Decision decision, String reason, Policy matchedPolicy) {
        this(decision, reason, matchedPolicy, List.of());
    }

    public String matchedPolicyId() {
        return matchedPolicy == null ? null : matchedPolicy.id();
    }

    public String matchedPolicyName() {
        return matchedPolicy == null ? null : matchedPolicy.name();
    }

    /** The condition errors as an audit entry carries them: null when none. */
    public List<ConditionError> conditionErrorsOrNull() {
        return conditionErrors.isEmpty() ? null : conditionErrors;
    }
}
