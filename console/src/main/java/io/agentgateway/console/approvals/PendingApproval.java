package io.agentgateway.console.approvals;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * An approval as the inbox and the approval page show it: what is asked (agent, tool, action, risk and how it was
 * classified), why it is held (the matched policy and the reason), by when, and exactly what will run.
 */
public record PendingApproval(UUID id, UUID workspaceId, String workspaceName, String status, String tool, String action,
                              String riskLevel, String riskClassification, String suppliedRiskLevel,
                              boolean riskOverriddenByCaller, String agentId, String agentName, String matchedPolicyId,
                              String matchedPolicyName, String reason, String requestedBy, String source,
                              String correlationId, Instant createdAt, Instant expiresAt, HeldCall heldCall,
                              String payloadExcerpt, boolean payloadTruncated) {

    public boolean critical() {
        return "critical".equals(riskLevel);
    }

    /** Whole seconds left until it expires (0 once expired). */
    public long secondsLeft(Instant now) {
        return Math.max(0, Duration.between(now, expiresAt).getSeconds());
    }

    /** "4 h 12 min", "9 min 3 s", "41 s" or "expired". */
    public String timeLeft(Instant now) {
        return Durations.left(secondsLeft(now));
    }

    /** How the risk was decided, in words. */
    public String classification() {
        if ("server_classified".equals(riskClassification)) {
            return "classified by the gateway" + (suppliedRiskLevel != null && !suppliedRiskLevel.equals(riskLevel)
                    ? " (the agent said " + suppliedRiskLevel + ")" : "");
        }
        if ("caller_supplied".equals(riskClassification)) {
            return riskOverriddenByCaller ? "set by the agent (overriding the tool's own risk)" : "as the agent stated it";
        }
        return riskClassification == null ? "unknown" : riskClassification;
    }
}
