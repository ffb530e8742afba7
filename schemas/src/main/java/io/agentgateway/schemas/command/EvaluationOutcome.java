package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;

/** The decision part of a reply to {@link EvaluateAction}: what evaluate-action returns (spec 2). */
public record EvaluationOutcome(
        Decision decision,
        String reason,
        String matchedPolicyId,
        String approvalRequestId,
        String auditLogId,
        RiskLevel riskLevel,
        RiskClassification riskClassification) {}
