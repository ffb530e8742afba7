package io.agentgateway.schemas.event;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.ConditionError;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.List;

/**
 * One evaluation and its audit log entry. Carries everything needed to recompute the decision
 * (normalized action, risk and how it was classified, agent, resource, source) plus the payload
 * excerpt: the payload as compact JSON cut to the configured byte limit ({@code payloadTruncated}
 * says whether it was cut, {@code payloadBytes} is the full size). {@code undelivered} is true when the
 * decision was made after the caller's deadline: it reached nobody, so no allow was taken as given and no
 * approval was opened (null, as in every record before deadlines, means delivered).
 *
 * @param limitReached  the workspace limit that turned the decision into {@code block} (fail closed), e.g.
 *                      {@code open_approvals} for a require_approval that could not open an approval because
 *                      the workspace holds as many as it may; null when no limit changed the decision.
 *                      {@code matchedPolicyId}/{@code matchedPolicyName} then still name the policy that asked
 *                      for the approval
 * @param agentIdentity how {@code agentId} is known: {@code bound} (the API key is bound to it) or
 *                      {@code asserted} (named by the caller); null without an agent id, and in records before it
 * @param conditionErrors the policy conditions that could not be evaluated on the way to this decision, in the order
 *                      they were tried, and what the fail-closed rule made of each (a match for block and
 *                      require_approval, no match for allow); null when none failed
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
        String limitReached,
        Boolean undelivered,
        AgentIdentity agentIdentity,
        List<ConditionError> conditionErrors) implements DomainEvent {

    public ActionEvaluated {
        conditionErrors = conditionErrors == null || conditionErrors.isEmpty() ? null : List.copyOf(conditionErrors);
    }

    /** Without condition errors (the form before conditions). */
    public ActionEvaluated(String auditLogId, Tool tool, String action, RiskLevel riskLevel, RiskLevel suppliedRiskLevel,
                           RiskClassification riskClassification, boolean riskOverriddenByCaller, Decision decision,
                           String reason, String matchedPolicyId, String matchedPolicyName, String approvalRequestId,
                           String agentId, String agentName, String resourceType, String resourceId, String requestedBy,
                           ActionSource source, String payloadExcerpt, boolean payloadTruncated, int payloadBytes,
                           String limitReached, Boolean undelivered, AgentIdentity agentIdentity) {
        this(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification, riskOverriddenByCaller, decision,
                reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId, agentName, resourceType, resourceId,
                requestedBy, source, payloadExcerpt, payloadTruncated, payloadBytes, limitReached, undelivered, agentIdentity,
                null);
    }

    /** Without the agent's identity (the form written before keys could be bound to an agent). */
    public ActionEvaluated(String auditLogId, Tool tool, String action, RiskLevel riskLevel, RiskLevel suppliedRiskLevel,
                           RiskClassification riskClassification, boolean riskOverriddenByCaller, Decision decision,
                           String reason, String matchedPolicyId, String matchedPolicyName, String approvalRequestId,
                           String agentId, String agentName, String resourceType, String resourceId, String requestedBy,
                           ActionSource source, String payloadExcerpt, boolean payloadTruncated, int payloadBytes,
                           String limitReached, Boolean undelivered) {
        this(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification, riskOverriddenByCaller, decision,
                reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId, agentName, resourceType, resourceId,
                requestedBy, source, payloadExcerpt, payloadTruncated, payloadBytes, limitReached, undelivered, null);
    }

    /** A decision answered in time that no limit changed (the v1 form before limits and deadlines). */
    public ActionEvaluated(String auditLogId, Tool tool, String action, RiskLevel riskLevel, RiskLevel suppliedRiskLevel,
                           RiskClassification riskClassification, boolean riskOverriddenByCaller, Decision decision,
                           String reason, String matchedPolicyId, String matchedPolicyName, String approvalRequestId,
                           String agentId, String agentName, String resourceType, String resourceId, String requestedBy,
                           ActionSource source, String payloadExcerpt, boolean payloadTruncated, int payloadBytes) {
        this(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification, riskOverriddenByCaller, decision,
                reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId, agentName, resourceType, resourceId,
                requestedBy, source, payloadExcerpt, payloadTruncated, payloadBytes, null, null, null);
    }

    /** The same entry with another payload excerpt (a stored outcome leaves it out and rebuilds it from the command). */
    public ActionEvaluated withPayloadExcerpt(String excerpt, boolean truncated, int bytes) {
        return new ActionEvaluated(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification,
                riskOverriddenByCaller, decision, reason, matchedPolicyId, matchedPolicyName, approvalRequestId, agentId,
                agentName, resourceType, resourceId, requestedBy, source, excerpt, truncated, bytes, limitReached, undelivered,
                agentIdentity, conditionErrors);
    }

    /** Whether the decision reached nobody (made after the caller's deadline). */
    public boolean wasUndelivered() {
        return Boolean.TRUE.equals(undelivered);
    }

    /** This entry as recorded for a decision made after the deadline: undelivered, no approval opened. */
    public ActionEvaluated asUndelivered() {
        return new ActionEvaluated(auditLogId, tool, action, riskLevel, suppliedRiskLevel, riskClassification,
                riskOverriddenByCaller, decision, reason, matchedPolicyId, matchedPolicyName, null, agentId, agentName,
                resourceType, resourceId, requestedBy, source, payloadExcerpt, payloadTruncated, payloadBytes, limitReached,
                Boolean.TRUE, agentIdentity, conditionErrors);
    }
}
