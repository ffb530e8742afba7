package io.agentgateway.decisioncore.condition;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.ZoneId;

/**
 * One action as its conditions see it: the evaluation's own fields (the classified risk, never the caller's), the
 * facts beyond them, and the workspace's time zone.
 */
public record ConditionInput(
        Tool tool,
        String action,
        RiskLevel risk,
        ActionSource source,
        String agentId,
        AgentIdentity agentIdentity,
        String resourceType,
        String resourceId,
        ActionFacts facts,
        ZoneId zone) {

    public ConditionInput {
        facts = facts == null ? ActionFacts.NONE : facts;
        zone = zone == null ? ZoneId.of("UTC") : zone;
    }
}
