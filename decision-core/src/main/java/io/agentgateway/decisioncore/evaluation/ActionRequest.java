package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.decisioncore.condition.ActionFacts;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;

/**
 * What policies see of an action: the classified risk, never the caller's. {@code agentIdentity}: whether the
 * agent id is bound to the caller's API key or only asserted (null without an agent id). {@code facts}: what policy
 * conditions read beyond these fields (the whole arguments, the proxied request, the raw target, the command's time),
 * from the command as the log holds it; {@link ActionFacts#NONE} when there is nothing more.
 */
public record ActionRequest(
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String resourceType,
        String resourceId,
        ActionSource source,
        AgentIdentity agentIdentity,
        ActionFacts facts) {

    public ActionRequest {
        facts = facts == null ? ActionFacts.NONE : facts;
    }

    /** Without facts for conditions. */
    public ActionRequest(Tool tool, String action, RiskLevel riskLevel, String agentId, String resourceType,
                         String resourceId, ActionSource source, AgentIdentity agentIdentity) {
        this(tool, action, riskLevel, agentId, resourceType, resourceId, source, agentIdentity, ActionFacts.NONE);
    }

    /** Without an identity (webhooks; evaluations recorded before agent identities). */
    public ActionRequest(Tool tool, String action, RiskLevel riskLevel, String agentId, String resourceType,
                         String resourceId, ActionSource source) {
        this(tool, action, riskLevel, agentId, resourceType, resourceId, source, null);
    }

    /** The same request with what its conditions read beyond its fields. */
    public ActionRequest withFacts(ActionFacts value) {
        return new ActionRequest(tool, action, riskLevel, agentId, resourceType, resourceId, source, agentIdentity, value);
    }
}
