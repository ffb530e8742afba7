package io.agentgateway.adminapi.oauth;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.ReplyErrors;
import io.agentgateway.actiongate.connection.WebhookRouting;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.secret.PlainSecret;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Stores a token obtained by OAuth as the tool connection's access token, sealed, through the log
 * ({@link SetToolAccessToken}), as the admin who started the flow: the decision stream checks that
 * admin's role in log order, like any admin change. Only the token changes, in log order with every
 * other change of the connection (nothing is copied from the read model, so an admin's edit made just
 * before is kept); a workspace without the connection gets one with the token alone. The answer goes
 * out once webhook deliveries see the change ({@link WebhookRouting}), as for the admin API's changes.
 *
 * <p>The command id is derived from the state's nonce, so a command that is redelivered or retried is
 * applied once, whatever happens to the HTTP exchange around it.
 */
@Component
class AccessTokenStore {
    private final OAuthConfiguration configuration;
    private final CommandGateway gateway;
    private final WebhookRouting webhooks;

    AccessTokenStore(OAuthConfiguration configuration, CommandGateway gateway, WebhookRouting webhooks) {
        this.configuration = configuration;
        this.gateway = gateway;
        this.webhooks = webhooks;
    }

    Mono<Void> store(OAuthState state, PlainSecret token, String correlationId) {
        SetToolAccessToken command = new SetToolAccessToken(state.tool().tool(), configuration.box().sealSecret(token.reveal()));
        return gateway.send(commandId(state), state.workspaceId().toString(), correlationId,
                        Actor.user(state.userId(), state.email()), command)
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN))
                .flatMap(reply -> webhooks.awaitVisible(state.workspaceId(), state.tool().tool(), reply.workspaceVersion()));
    }

    static String commandId(OAuthState state) {
        return UUID.nameUUIDFromBytes(("oauth-token:" + state.nonce()).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
