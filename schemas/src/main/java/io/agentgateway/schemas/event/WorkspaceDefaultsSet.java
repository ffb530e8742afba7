package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.Map;

/** The complete defaults now in force (every risk level present), not just the change. */
public record WorkspaceDefaultsSet(Map<RiskLevel, Decision> decisions, Duration approvalTtl)
        implements DomainEvent {}
