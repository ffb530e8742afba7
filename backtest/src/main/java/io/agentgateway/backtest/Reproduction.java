package io.agentgateway.backtest;

import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether deciding a recorded evaluation again reproduced it exactly: the decision, its reason text,
 * the matched policy and the conditions that failed on the way (each with what the fail-closed rule did), and the risk the classifier derives from the supplied level. Anything else is a
 * bug (in the evaluation code, or in what the log records) and is reported, never smoothed over.
 */
final class Reproduction {
    private Reproduction() {}

    /** The names of the fields that differ; empty when the record was reproduced. */
    static List<String> differences(ActionEvaluated recorded, Verdict replayed, ClassifiedRisk risk) {
        List<String> differences = new ArrayList<>(2);
        if (recorded.decision() != replayed.decision()) {
            differences.add("decision");
        }
        if (!Objects.equals(recorded.reason(), replayed.reason())) {
            differences.add("reason");
        }
        if (!Objects.equals(recorded.matchedPolicyId(), replayed.matchedPolicyId())) {
            differences.add("matchedPolicyId");
        }
        if (!Objects.equals(recorded.conditionErrors(), replayed.conditionErrorsOrNull())) {
            differences.add("conditionErrors");
        }
        if (risk == null || risk.level() != recorded.riskLevel()) {
            differences.add("riskLevel");
        }
        if (risk == null || risk.classification() != recorded.riskClassification()) {
            differences.add("riskClassification");
        }
        return differences;
    }
}
