package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.Map;

/**
 * The complete defaults now in force (every risk level present), not just the change. {@code timeZone}: the
 * workspace's time zone now in force (IANA id); absent in records before conditions, which meant UTC.
 */
public record WorkspaceDefaultsSet(Map<RiskLevel, Decision> decisions, Duration approvalTtl, String timeZone)
        implements DomainEvent {

    /** The time zone of a workspace that never set one. */
    public static final String DEFAULT_TIME_ZONE = "UTC";

    /** Without a time zone (the form before conditions). */
    public WorkspaceDefaultsSet(Map<RiskLevel, Decision> decisions, Duration approvalTtl) {
        this(decisions, approvalTtl, null);
    }
}
