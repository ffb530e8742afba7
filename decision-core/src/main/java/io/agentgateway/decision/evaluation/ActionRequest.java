package io.agentgateway.decision.evaluation;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;

/**
 * What policies see of an action: the classified risk, never the caller's. {@code agentIdentity}: whether the
 * agent id is bound to the caller's API key or only asserted (null without an agent id).
 */
public record ActionRequest(
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String resourceType,
        String resourceId,
        ActionSource source,
        AgentIdentity agentIdentity) {

    /** Without an identity (webhooks; evaluations recorded before keys could be bound to an agent). */
    public ActionRequest(Tool tool, String action, RiskLevel riskLevel, String agentId, String resourceType,
                         String resourceId, ActionSource source) {
        this(tool, action, riskLevel, agentId, resourceType, resourceId, source, null);
    }
}
