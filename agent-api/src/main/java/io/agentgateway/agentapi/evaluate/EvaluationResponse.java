package io.agentgateway.agentapi.evaluate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.command.EvaluationOutcome;

/** The 200 body of evaluate-action (spec section 2); absent ids are written as null, not left out. */
@JsonInclude(JsonInclude.Include.ALWAYS)
record EvaluationResponse(
        boolean ok,
        Decision decision,
        String reason,
        String matchedPolicyId,
        String approvalRequestId,
        String auditLogId,
        String correlationId,
        @JsonProperty("risk_classification") RiskClassification riskClassification,
        RiskLevel riskLevel) {

    static EvaluationResponse of(EvaluationOutcome outcome, String correlationId) {
        return new EvaluationResponse(true, outcome.decision(), outcome.reason(), outcome.matchedPolicyId(),
                outcome.approvalRequestId(), outcome.auditLogId(), correlationId, outcome.riskClassification(),
                outcome.riskLevel());
    }
}
