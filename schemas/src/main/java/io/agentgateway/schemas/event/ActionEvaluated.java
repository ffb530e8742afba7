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
 *
 * @param limitReached  the workspace limit that turned the decision into {@code block} (fail closed), e.g.
 *                      {@code open_approvals} for a require_approval that could not open an approval because
 *                      the workspace holds as many as it may; null when no limit changed the decision.
 *                      {@code matchedPolicyId}/{@code matchedPolicyName} then still name the policy that asked
 *                      for the approval
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
        int payloadBytes,
        String limitReached) implements DomainEvent {

    /** An evaluation that no limit changed. */
    public ActionEvaluated(String auditLogId, Tool tool, String action, RiskLevel riskLevel, RiskLevel suppliedRiskLevel,
                           RiskClassification riskClassification, boolean riskOverriddenByCaller, Decision decision,
                           String reason, String matchedPolicyId, String matchedPolicyName, String approvalRequestId,
                           String agentId, String agentName, String resourceType, String resourceId, String requestedBy,
                           ActionSource source, String payloadExcerpt, boolean payloadTruncated, int payloadBytes) {
        this(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification, riskOverriddenByCaller, decision,
                reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId, agentName, resourceType, resourceId,
                requestedBy, source, payloadExcerpt, payloadTruncated, payloadBytes, null);
    }

    /** The same entry with another payload excerpt (a stored outcome leaves it out and rebuilds it from the command). */
    public ActionEvaluated withPayloadExcerpt(String excerpt, boolean truncated, int bytes) {
        return new ActionEvaluated(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification,
                riskOverriddenByCaller, decision, reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId,
                agentName, resourceType, resourceId, requestedBy, source, excerpt, truncated, bytes, limitReached);
    }
}
