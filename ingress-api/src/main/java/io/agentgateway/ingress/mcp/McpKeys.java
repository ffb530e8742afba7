package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.auth.ApiKeyCredential;
import io.agentgateway.ingress.connection.ConnectionAccess;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The gate's key check for every request that is not a lone {@code tools/call} (whose evaluation checks
 * it): a {@code check_access} through the decision stream, so a revoked key stops and a new key works as
 * soon as the admin API answered, on every replica. It confirms the workspace's {@code mcp} connection on
 * the way, so a {@code tools/list} that follows uses the current one.
 */
@Component
class McpKeys {
    private final ConnectionAccess access;

    McpKeys(ConnectionAccess access) {
        this.access = access;
    }

    /** Empty when the key may use the gate; the error signal 401 when not. */
    Mono<Void> check(ApiKeyCredential key, String agentId, String correlationId) {
        return access.authorize(key.workspaceId(), correlationId, Actor.apiKey(key.keyHash(), agentId), Scope.MCP, Tool.MCP)
                .then();
    }
}
