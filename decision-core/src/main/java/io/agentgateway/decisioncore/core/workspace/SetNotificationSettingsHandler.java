package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.state.NotificationSettings;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.event.NotificationSettingsSet;

/**
 * Stores where notifications go. The chat URL must arrive sealed: a plain URL is a credential and
 * would otherwise sit in the state store and its changelog topic in clear text.
 */
final class SetNotificationSettingsHandler implements CommandHandler<SetNotificationSettings> {
    private static final String SEALED_PREFIX = "v1.";

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SetNotificationSettings command) {
        String sealed = command.sealedChatWebhookUrl();
        if (sealed != null && !sealed.startsWith(SEALED_PREFIX)) {
            return CommandResult.invalid(state, "sealedChatWebhookUrl must be sealed with SecretBox");
        }
        if (command.keepsChatWebhook()) {
            if (sealed != null) {
                return CommandResult.invalid(state, "keepChatWebhook and chatWebhookUrl cannot both be set");
            }
            // the URL stored already stays: the caller changes the email setting alone
            sealed = state.notifications().sealedChatWebhookUrl();
        }
        NotificationSettings next = new NotificationSettings(sealed, command.emailEnabled());
        return CommandResult.accepted(state.withNotifications(next),
                new NotificationSettingsSet(next.chatConfigured(), next.emailEnabled()));
    }
}
