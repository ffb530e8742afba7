package io.agentgateway.schemas.event;

import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import java.util.Set;

/**
 * A kill-switch call was applied (spec 4.2). Also an audit log entry of risk critical
 * ({@code auditLogId}); the state after it is in {@code killSwitchEnabled} and {@code pausedTools}.
 */
public record KillSwitchChanged(
        String auditLogId,
        KillSwitchAction action,
        Tool tool,
        boolean killSwitchEnabled,
        Set<Tool> pausedTools) implements DomainEvent {}
