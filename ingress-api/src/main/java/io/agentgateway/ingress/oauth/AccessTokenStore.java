package io.agentgateway.ingress.oauth;

import io.agentgateway.ingress.connection.StoredToolConnection;
import io.agentgateway.ingress.connection.ToolConnectionChangedHere;
import io.agentgateway.ingress.connection.ToolConnectionRepository;
import io.agentgateway.ingress.gateway.CommandGateway;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.ingress.web.ReplyErrors;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.secret.PlainSecret;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Stores a token obtained by OAuth as the tool connection's access token, sealed, through the log
 * ({@link UpsertToolConnection}, the admin API's own command), as the admin who started the flow: the
 * decision stream checks that admin's role in log order, like any admin change. Only the token
 * changes: the connection's other fields are sent as projected now (a new connection gets none), and
 * the webhook secret is kept.
 *
 * <p>The command id is derived from the state's nonce, so a command that is redelivered or retried is
 * applied once, whatever happens to the HTTP exchange around it.
 */
@Component
class AccessTokenStore {
    private final OAuthConfiguration configuration;
    private final ToolConnectionRepository connections;
    private final CommandGateway gateway;
    private final ApplicationEventPublisher changes;

    AccessTokenStore(OAuthConfiguration configuration, ToolConnectionRepository connections, CommandGateway gateway,
                     ApplicationEventPublisher changes) {
        this.configuration = configuration;
        this.connections = connections;
        this.gateway = gateway;
        this.changes = changes;
    }

    Mono<Void> store(OAuthState state, PlainSecret token, String correlationId) {
        SecretUpdate sealed = SecretUpdate.set(configuration.box().sealSecret(token.reveal()));
        return Blocking.call(() -> connections.find(state.workspaceId(), state.tool().tool()))
                .flatMap(current -> gateway.send(commandId(state), state.workspaceId().toString(), correlationId,
                        Actor.user(state.userId(), state.email()), command(state, current, sealed)))
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN))
                .doOnNext(accepted -> changes.publishEvent(new ToolConnectionChangedHere(state.workspaceId(), state.tool().tool())))
                .then();
    }

    private static UpsertToolConnection command(OAuthState state, Optional<StoredToolConnection> current, SecretUpdate token) {
        if (current.isEmpty()) {
            return new UpsertToolConnection(state.tool().tool(), ToolConnectionConfig.none(), null, null, null, null,
                    token, SecretUpdate.keep());
        }
        StoredToolConnection now = current.get();
        return new UpsertToolConnection(now.tool(), now.config(), now.mcpServerUrl(), now.mcpAuthType(), now.mcpTransport(),
                now.baseUrl(), token, SecretUpdate.keep());
    }

    static String commandId(OAuthState state) {
        return UUID.nameUUIDFromBytes(("oauth-token:" + state.nonce()).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
