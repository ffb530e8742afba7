package io.agentgateway.schemas.event;

import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import java.util.Set;

/**
 * A kill-switch call was applied (spec 4.2). Also an audit log entry of risk critical
 * ({@code auditLogId}); the state after it is in {@code killSwitchEnabled} and {@code pausedTools}; {@code reason}
 * is the caller's, when it gave one.
 */
public record KillSwitchChanged(
        String auditLogId,
        KillSwitchAction action,
        Tool tool,
        boolean killSwitchEnabled,
        Set<Tool> pausedTools,
        String reason) implements DomainEvent {

    public KillSwitchChanged(String auditLogId, KillSwitchAction action, Tool tool, boolean killSwitchEnabled,
                             Set<Tool> pausedTools) {
        this(auditLogId, action, tool, killSwitchEnabled, pausedTools, null);
    }
}
