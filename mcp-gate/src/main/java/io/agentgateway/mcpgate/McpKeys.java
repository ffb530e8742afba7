package io.agentgateway.mcpgate;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
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
public class McpKeys {
    private final ConnectionAccess access;

    McpKeys(ConnectionAccess access) {
        this.access = access;
    }

    /**
     * The workspace's {@code mcp} connection, confirmed current as of the stream's answer, when the key may
     * use the gate ({@code McpUpstreams.of} gives its upstream, for a request that
     * uses the upstream without a decision of its own); the error signal 401 when it may not.
     */
    public Mono<Known> check(ApiKeyCredential key, String agentId, String correlationId) {
        return access.authorize(key.workspaceId(), correlationId, Actor.apiKey(key.keyHash(), agentId), Scope.MCP, Tool.MCP);
    }
}
