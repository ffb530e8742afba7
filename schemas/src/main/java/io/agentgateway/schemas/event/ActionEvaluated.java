package io.agentgateway.schemas.event;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;

/**
 * One evaluation and its audit log entry. Carries everything needed to recompute the decision
 * (normalized action, risk and how it was classified, agent, resource, source) plus the payload
 * excerpt: the payload as compact JSON cut to the configured byte limit ({@code payloadTruncated}
 * says whether it was cut, {@code payloadBytes} is the full size).
 */
public record ActionEvaluated(
        String auditLogId,
        Tool tool,
        String action,
        RiskLevel riskLevel,
        RiskLevel suppliedRiskLevel,
        RiskClassification riskClassification,
        boolean riskOverriddenByCaller,
        Decision decision,
        String reason,
        String matchedPolicyId,
        String matchedPolicyName,
        String approvalRequestId,
        String agentId,
        String agentName,
        String resourceType,
        String resourceId,
        String requestedBy,
        ActionSource source,
        String payloadExcerpt,
        boolean payloadTruncated,
        int payloadBytes) implements DomainEvent {}
