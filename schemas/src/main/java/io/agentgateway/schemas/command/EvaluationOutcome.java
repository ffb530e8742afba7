package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import java.time.Instant;
import java.util.List;

/**
 * The decision part of a reply to {@link EvaluateAction}: what evaluate-action returns (spec 2).
 *
 * @param hiddenTools on an allowed MCP {@code tools/list} that named its {@link EvaluateAction#listedTools()}:
 *                    those of them a {@code tools/call} would be blocked for whatever its arguments, under the same
 *                    policies (empty: none); the gate does not list them. Null on every other evaluation.
 */
public record EvaluationOutcome(
        Decision decision,
        String reason,
        String matchedPolicyId,
        String approvalRequestId,
        String auditLogId,
        RiskLevel riskLevel,
        RiskClassification riskClassification,
        List<String> hiddenTools,
        Instant approvalCreatedAt,
        Instant approvalExpiresAt) {

    public EvaluationOutcome {
        hiddenTools = hiddenTools == null ? null : List.copyOf(hiddenTools);
    }

    /** Without the opened approval's times (the form before MCP tasks). */
    public EvaluationOutcome(Decision decision, String reason, String matchedPolicyId, String approvalRequestId,
                             String auditLogId, RiskLevel riskLevel, RiskClassification riskClassification,
                             List<String> hiddenTools) {
        this(decision, reason, matchedPolicyId, approvalRequestId, auditLogId, riskLevel, riskClassification, hiddenTools,
                null, null);
    }

    /** Without hidden tools (every evaluation but a tools/list, and the form written before lists were decided). */
    public EvaluationOutcome(Decision decision, String reason, String matchedPolicyId, String approvalRequestId,
                             String auditLogId, RiskLevel riskLevel, RiskClassification riskClassification) {
        this(decision, reason, matchedPolicyId, approvalRequestId, auditLogId, riskLevel, riskClassification, null);
    }

    /** The same outcome naming the listed tools it hides. */
    public EvaluationOutcome withHiddenTools(List<String> hidden) {
        return new EvaluationOutcome(decision, reason, matchedPolicyId, approvalRequestId, auditLogId, riskLevel,
                riskClassification, hidden, approvalCreatedAt, approvalExpiresAt);
    }

    /** The same outcome naming when the approval request it opened was opened and when it expires. */
    public EvaluationOutcome withApprovalTimes(Instant createdAt, Instant expiresAt) {
        return new EvaluationOutcome(decision, reason, matchedPolicyId, approvalRequestId, auditLogId, riskLevel,
                riskClassification, hiddenTools, createdAt, expiresAt);
    }
}
