package io.agentgateway.adminapi.oauth;

import io.agentgateway.adminapi.shared.WorkspaceRoles;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The callback's work once its state verified, in the order that keeps every failure free of side
 * effects upstream and here: the admin must still be admin or owner of the bound workspace (projected
 * membership; the decision stream checks again in log order), the state is spent (once, across
 * replicas and restarts), the code is exchanged, and the token is stored sealed through the log.
 */
@Component
class OAuthConnector {
    static final String NO_LONGER_ADMIN =
            "The admin who started this connection is no longer admin or owner of the workspace: nothing was stored";
    static final String REUSED = "state was already used: start the connection again";

    private final OAuthConfiguration configuration;
    private final WorkspaceRoles roles;
    private final OAuthStateUses uses;
    private final TokenExchange exchange;
    private final AccessTokenStore store;

    OAuthConnector(OAuthConfiguration configuration, WorkspaceRoles roles,
                   OAuthStateUses uses, TokenExchange exchange, AccessTokenStore store) {
        this.configuration = configuration;
        this.roles = roles;
        this.uses = uses;
        this.exchange = exchange;
        this.store = store;
    }

    Mono<Void> connect(OAuthState state, String code, String correlationId) {
        return Mono.defer(() -> {
            OAuthClientProperties app = configuration.requireReady(state.tool());
            return authorizeAndSpend(state)
                    .then(exchange.exchange(state.tool(), app, code, state.redirectUri()))
                    .flatMap(token -> store.store(state, token, correlationId));
        });
    }

    /** A declined consent still spends its state: the flow is over, whatever comes back later. */
    Mono<Void> decline(OAuthState state) {
        return authorizeAndSpend(state);
    }

    private Mono<Void> authorizeAndSpend(OAuthState state) {
        return Blocking.call(() -> {
            if (!roles.administers(state.workspaceId(), state.userId())) {
                throw ApiException.forbidden(NO_LONGER_ADMIN);
            }
            if (!uses.spend(state)) {
                throw new ApiException(HttpStatus.CONFLICT, REUSED);
            }
            return true;
        }).then();
    }
}
