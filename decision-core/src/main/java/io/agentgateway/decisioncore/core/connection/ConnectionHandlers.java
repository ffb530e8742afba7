package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.command.UpsertToolConnection;

/**
 * The handlers of a workspace's tool connections (their versions, rules and sealed secrets), for
 * {@code CommandHandlers}' table; the handlers themselves stay package-private.
 */
public final class ConnectionHandlers {
    private ConnectionHandlers() {}

    public static CommandHandler<UpsertToolConnection> upsertToolConnection(int repositoriesLimit) {
        return new UpsertToolConnectionHandler(repositoriesLimit);
    }

    public static CommandHandler<DeleteToolConnection> deleteToolConnection() {
        return new DeleteToolConnectionHandler();
    }

    public static CommandHandler<RotateWebhookSecret> rotateWebhookSecret() {
        return new RotateWebhookSecretHandler();
    }

    public static CommandHandler<SetToolAccessToken> setToolAccessToken() {
        return new SetToolAccessTokenHandler();
    }
}
