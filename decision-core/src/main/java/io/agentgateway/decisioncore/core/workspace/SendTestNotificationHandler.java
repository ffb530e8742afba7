package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code test} notification to where the workspace's alerts go now, resolved as a kill-switch alert's is (the admins'
 * and owners' emails unless email is off, the sealed chat webhook), so that it proves the same path: the notifier, its
 * ledger (at most once per channel) and the channels. It changes nothing and records no event: the command itself, in
 * the commands log, says who asked. With nobody to tell it is refused, so that "sent" never means "sent nowhere".
 */
final class SendTestNotificationHandler implements CommandHandler<SendTestNotification> {
    static final String KIND_TEST = "test";
    static final String NOBODY = "Nobody to notify: no admin or owner has an email (or email is off) and no chat webhook is set";

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SendTestNotification command) {
        List<String> emailTo = state.notifications().emailEnabled() ? state.administratorEmails() : List.of();
        String chat = state.notifications().sealedChatWebhookUrl();
        if (emailTo.isEmpty() && chat == null) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, NOBODY);
        }
        String workspace = state.name() == null ? envelope.workspaceId() : state.name();
        Actor actor = envelope.actor();
        String who = actor == null ? "Someone" : actor.email() != null && !actor.email().isBlank()
                ? actor.email() + " (user " + actor.userId() + ")" : "User " + actor.userId();
        Map<String, String> details = new LinkedHashMap<>();
        if (actor != null && actor.userId() != null) {
            details.put("actorUserId", actor.userId());
        }
        details.put("workspaceName", workspace);
        details.put("occurredAt", envelope.acceptedAt().toString());
        NotificationRequested notification = new NotificationRequested(NotificationRequested.CURRENT_VERSION,
                DerivedIds.notificationId(envelope.commandId()), envelope.workspaceId(), envelope.correlationId(), KIND_TEST,
                envelope.acceptedAt(), "Test notification from workspace " + workspace,
                who + " sent a test notification from workspace \"" + workspace + "\" (" + envelope.workspaceId() + ") at "
                        + envelope.acceptedAt() + ". Kill-switch alerts and approval requests of this workspace reach you"
                        + " the same way.", emailTo, chat, details);
        return new CommandResult(state, ReplyStatus.OK, null, null, List.of(), List.of(notification));
    }
}
