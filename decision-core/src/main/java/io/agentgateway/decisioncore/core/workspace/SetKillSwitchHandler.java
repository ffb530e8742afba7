package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.event.KillSwitchChanged;
import java.util.EnumSet;
import java.util.Set;

/**
 * Spec 4.2. Every call, even one that changes nothing (enabling an enabled switch), is an audit entry
 * of risk critical and queues a notification: an admin pressing the switch is itself the news.
 */
final class SetKillSwitchHandler implements CommandHandler<SetKillSwitch> {
    static final int MAX_REASON_LENGTH = 2000;
    private final KillSwitchNotification notification = new KillSwitchNotification();

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SetKillSwitch command) {
        KillSwitchAction action = command.action();
        if (action == null) {
            return CommandResult.invalid(state, "Unsupported action");
        }
        boolean perTool = action == KillSwitchAction.PAUSE_TOOL || action == KillSwitchAction.RESUME_TOOL;
        if (perTool && command.tool() == null) {
            return CommandResult.invalid(state, "tool is required for pause_tool and resume_tool");
        }
        Tool tool = perTool ? command.tool() : null;
        if (command.reason() != null && command.reason().length() > MAX_REASON_LENGTH) {
            return CommandResult.invalid(state, "reason must be at most " + MAX_REASON_LENGTH + " characters");
        }
        String reason = command.reason() == null || command.reason().isBlank() ? null : command.reason();

        boolean enabled = state.killSwitchEnabled();
        Set<Tool> paused = state.pausedTools().isEmpty() ? EnumSet.noneOf(Tool.class) : EnumSet.copyOf(state.pausedTools());
        switch (action) {
            case ENABLE -> enabled = true;
            case DISABLE -> enabled = false;
            case PAUSE_TOOL -> paused.add(tool);
            case RESUME_TOOL -> paused.remove(tool);
        }
        WorkspaceState next = state.withKillSwitch(enabled, paused);

        String auditLogId = DerivedIds.auditLogId(envelope.commandId());
        KillSwitchChanged changed = new KillSwitchChanged(auditLogId, action, tool, next.killSwitchEnabled(), next.pausedTools(),
                reason);
        return CommandResult.accepted(next, changed)
                .withNotification(notification.build(envelope, next, changed));
    }
}
