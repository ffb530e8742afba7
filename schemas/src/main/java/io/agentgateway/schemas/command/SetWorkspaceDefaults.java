package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.Map;

/**
 * The decision per risk level when no policy matches, and how long an approval request stays
 * pending. Risk levels absent from the map keep their current default; a null TTL keeps the current one.
 */
public record SetWorkspaceDefaults(Map<RiskLevel, Decision> decisions, Duration approvalTtl)
        implements Command {
    /** The longest approval TTL accepted: an expiry computed from a longer one can overflow. */
    public static final Duration MAX_APPROVAL_TTL = Duration.ofDays(366);
}
