package io.agentgateway.decision.evaluation;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;

/** What policies see of an action: the classified risk, never the caller's. */
public record ActionRequest(
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String resourceType,
        String resourceId,
        ActionSource source) {}
