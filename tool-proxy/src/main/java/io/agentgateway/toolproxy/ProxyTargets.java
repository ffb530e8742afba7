package io.agentgateway.toolproxy;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.connection.ConnectionSecrets;
import io.agentgateway.actiongate.connection.UnreadableSecretException;
import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ActionIntent;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.EvaluateAction;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Where a workspace's proxied calls to a tool go, and with which connection they are decided: the
 * connection's base URL (or the tool's usual one: {@code gateway.proxy.default-base-urls}, else its profile's), the
 * credential headers made from its token (opened for this one call), and its classification rules.
 *
 * <p>The connection is the one the {@code ToolConnectionView} holds; the evaluation names its version,
 * so the decision stream decides only on the current one (a stale answer: prepared and sent again with
 * the connection it carries). Before a 409 ("cannot be used") the view's connection is confirmed with
 * the stream ({@code check_access}, which also checks the key and its proxy scope in log order): a
 * caller without a valid key learns nothing about the connections, and no 409 is ever answered from
 * an old copy. Nothing here reads the read model.
 */
@Component
class ProxyTargets {
    private static final Logger log = LoggerFactory.getLogger(ProxyTargets.class);
    static final String UNREADABLE = "The stored credential of this tool cannot be used; reconnect the tool";

    private final ActionGate gate;
    private final ConnectionSecrets secrets;
    private final ProxyProperties properties;

    ProxyTargets(ActionGate gate, ConnectionSecrets secrets, ProxyProperties properties) {
        this.gate = gate;
        this.secrets = secrets;
        this.properties = properties;
    }

    /** The target a decision was made with, and the decision. */
    record Decided(ProxyTarget target, GateDecision decision) {}

    /**
     * Decides a proxied request with the workspace's current connection to the tool.
     *
     * @param evaluation the request's evaluation, prepared from the target (rules classify chat, docs and
     *                   internal_api requests); the gate names the connection's version in it
     * @return the error signal 409 {@link ApiException} when the current connection cannot be used, 401 when
     *         the key may not use the proxy (only asked before a 409; otherwise the evaluation's reply says so)
     */
    Mono<Decided> decide(ApiKeyCredential key, Tool tool, String agentId, String correlationId,
                         Optional<String> idempotencyKey, Function<ProxyTarget, EvaluateAction> evaluation) {
        UUID workspaceId = key.workspaceId();
        return Mono.defer(() -> {
            AtomicReference<ProxyTarget> prepared = new AtomicReference<>();
            ActionIntent intent = ActionIntent.agent(key, agentId, correlationId)
                    .idempotencyKey(idempotencyKey, null)
                    .onConnection(tool, Scope.PROXY, connection -> usable(tool, connection))
                    .evaluate(current -> {
                        // throws the 409 for a connection the stream confirmed (the gate confirms one the view holds
                        // unusable before it is prepared from; a stale answer carries the current one)
                        ProxyTarget target = require(workspaceId, tool, current.connection());
                        prepared.set(target);
                        return Optional.of(evaluation.apply(target));
                    })
                    .build();
            return gate.decide(intent).map(decision -> new Decided(prepared.get(), decision));
        });
    }

    /** Whether the connection can be used, judged without opening its token. */
    private boolean usable(Tool tool, ToolConnection connection) {
        try {
            checkUsable(tool, connection);
            return true;
        } catch (ApiException unusable) {
            return false;
        }
    }

    /**
     * The target of a connection as the stream holds it (sealed), its token opened for this use.
     *
     * @throws ApiException 409 when it cannot be used (none, no token, no base URL, unreadable credential)
     */
    ProxyTarget require(UUID workspaceId, Tool tool, ToolConnection connection) {
        URI baseUrl = checkUsable(tool, connection);
        try {
            return new ProxyTarget(new UpstreamTarget(baseUrl,
                    ToolCredentials.headers(tool, secrets.open(workspaceId, tool, connection.accessToken(), "access token"))),
                    connection.config() == null ? List.of() : connection.config().rules());
        } catch (UnreadableSecretException e) {
            // the message names the workspace and tool, never the secret
            log.error("proxy: {}", e.getMessage());
            throw new ApiException(HttpStatus.CONFLICT, UNREADABLE);
        }
    }

    /** @return the base URL calls go to; @throws ApiException 409 when the connection cannot be used */
    private URI checkUsable(Tool tool, ToolConnection connection) {
        if (connection == null) {
            throw new ApiException(HttpStatus.CONFLICT,
                    "No " + tool.wire() + " connection is configured for this workspace; an admin connects it under tool settings");
        }
        if (ToolCredentials.tokenRequired(tool) && connection.accessToken() == null) {
            throw new ApiException(HttpStatus.CONFLICT,
                    "The " + tool.wire() + " connection has no access token; an admin connects it (OAuth) first");
        }
        return baseUrl(connection, tool);
    }

    private URI baseUrl(ToolConnection connection, Tool tool) {
        if (connection.baseUrl() != null && !connection.baseUrl().isBlank()) {
            try {
                return URI.create(connection.baseUrl());
            } catch (IllegalArgumentException e) {
                throw new ApiException(HttpStatus.CONFLICT, "The " + tool.wire() + " connection's base_url is not a valid URL");
            }
        }
        // the operator's default for the tool, else its profile's (the real upstream's API)
        URI fallback = properties.defaultBaseUrls().get(tool.wire());
        if (fallback == null) {
            fallback = ProxyClassifier.proxied(tool).defaultBaseUrl().map(URI::create).orElse(null);
        }
        if (fallback == null) {
            throw new ApiException(HttpStatus.CONFLICT,
                    "The " + tool.wire() + " connection has no base_url; an admin sets it under tool settings");
        }
        return fallback;
    }
}
