package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import java.util.Optional;

/**
 * Replaces the webhook secret of an existing connection of a tool that sends webhooks. From this
 * command on, in log order, deliveries signed with the old secret no longer verify.
 */
final class RotateWebhookSecretHandler implements CommandHandler<RotateWebhookSecret> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RotateWebhookSecret command) {
        if (command.tool() == null) {
            return CommandResult.invalid(state, UpsertToolConnectionHandler.TOOL_MESSAGE);
        }
        if (!ToolProfiles.of(command.tool()).sendsWebhooks()) {
            return CommandResult.invalid(state, "webhook secrets are only for the " + ToolConnectionRules.WEBHOOK_TOOLS);
        }
        if (command.webhookSecret() == null || !command.webhookSecret().hasSealedForm()) {
            return CommandResult.invalid(state, "webhook_secret must be sealed with SecretBox");
        }
        Optional<ToolConnection> current = state.toolConnection(command.tool());
        if (current.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, DeleteToolConnectionHandler.NOT_FOUND);
        }
        ToolConnection next = current.get().withWebhookSecret(command.webhookSecret()).withVersion(ConnectionVersions.next(state));
        return CommandResult.accepted(state.withToolConnection(next), new WebhookSecretRotated(next));
    }
}
