package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.Map;

/**
 * The decision per risk level when no policy matches, how long an approval request stays pending, and the
 * workspace's time zone (an IANA id such as {@code Europe/Berlin}: policy conditions read the command's time in it).
 * Risk levels absent from the map keep their current default; a null TTL or time zone keeps the current one.
 */
public record SetWorkspaceDefaults(Map<RiskLevel, Decision> decisions, Duration approvalTtl, String timeZone)
        implements Command {
    /** The longest approval TTL accepted: an expiry computed from a longer one can overflow. */
    public static final Duration MAX_APPROVAL_TTL = Duration.ofDays(366);

    /** Without a time zone (the form before conditions). */
    public SetWorkspaceDefaults(Map<RiskLevel, Decision> decisions, Duration approvalTtl) {
        this(decisions, approvalTtl, null);
    }
}
