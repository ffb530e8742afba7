package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code kill_switch} notification (spec 6), resolved completely here (recipients, sealed chat URL,
 * text) so the notifier needs no workspace state. Recipients are the admins and owners at the moment
 * of the call.
 */
final class KillSwitchNotification {

    NotificationRequested build(CommandEnvelope envelope, WorkspaceState state, KillSwitchChanged changed) {
        String workspace = state.name() == null ? envelope.workspaceId() : state.name();
        String who = describe(envelope.actor());
        String toolName = changed.tool() == null ? null : changed.tool().wire();
        String subject;
        String what;
        switch (changed.action()) {
            case ENABLE -> {
                subject = "Kill switch enabled in workspace " + workspace;
                what = "enabled the kill switch: every agent action is now blocked";
            }
            case DISABLE -> {
                subject = "Kill switch disabled in workspace " + workspace;
                what = "disabled the kill switch: agent actions are evaluated against policies again";
            }
            case PAUSE_TOOL -> {
                subject = "Tool " + toolName + " paused in workspace " + workspace;
                what = "paused the tool " + toolName + ": its agent actions are now blocked";
            }
            case RESUME_TOOL -> {
                subject = "Tool " + toolName + " resumed in workspace " + workspace;
                what = "resumed the tool " + toolName + ": its agent actions are evaluated against policies again";
            }
            default -> throw new IllegalArgumentException("unknown kill switch action " + changed.action());
        }
        String pausedTools = changed.pausedTools().stream().map(Tool::wire).collect(Collectors.joining(","));
        String text = who + " " + what + " in workspace \"" + workspace + "\" (" + envelope.workspaceId() + ") at "
                + envelope.acceptedAt() + ". Kill switch: " + (changed.killSwitchEnabled() ? "on" : "off")
                + "; paused tools: " + (pausedTools.isEmpty() ? "none" : pausedTools)
                + ". Audit log entry " + changed.auditLogId() + ", correlation id " + envelope.correlationId() + ".";

        Map<String, String> details = new LinkedHashMap<>();
        details.put("action", changed.action().wire());
        if (toolName != null) {
            details.put("tool", toolName);
        }
        putIfPresent(details, "actorUserId", envelope.actor() == null ? null : envelope.actor().userId());
        details.put("workspaceName", workspace);
        details.put("killSwitchEnabled", Boolean.toString(changed.killSwitchEnabled()));
        details.put("pausedTools", pausedTools);
        details.put("auditLogId", changed.auditLogId());
        putIfPresent(details, "correlationId", envelope.correlationId());
        details.put("occurredAt", envelope.acceptedAt().toString());

        List<String> emailTo = state.notifications().emailEnabled() ? state.administratorEmails() : List.of();
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION,
                DerivedIds.notificationId(envelope.commandId()), envelope.workspaceId(), envelope.correlationId(),
                NotificationRequested.KIND_KILL_SWITCH, envelope.acceptedAt(), subject, text, emailTo,
                state.notifications().sealedChatWebhookUrl(), details);
    }

    private static String describe(Actor actor) {
        if (actor == null) {
            return "Someone";
        }
        if (actor.email() != null && !actor.email().isBlank()) {
            return actor.email() + " (user " + actor.userId() + ")";
        }
        return "User " + actor.userId();
    }

    private static void putIfPresent(Map<String, String> details, String key, String value) {
        if (value != null) {
            details.put(key, value);
        }
    }
}
