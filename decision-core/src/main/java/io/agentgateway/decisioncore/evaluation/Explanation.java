package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.decisioncore.condition.ConditionValue;
import io.agentgateway.schemas.Policy;
import java.util.List;

/**
 * A decision explained policy by policy (the admin API's policy test): the verdict, and for each enabled policy the
 * tool's index offers, in evaluation order, whether its lists match, what its condition evaluates to (null: it has
 * none) and whether it is the one that decided.
 */
public record Explanation(Verdict verdict, List<PolicyCheck> policies) {

    public Explanation {
        policies = List.copyOf(policies);
    }

    public record PolicyCheck(Policy policy, boolean listsMatch, ConditionValue condition, boolean decided) {}
}
