package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.connection.ToolConnections;
import io.agentgateway.ingress.connection.UnreadableSecretException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Finds a workspace's upstream MCP server in its {@code mcp} tool connection (off the event loop). */
@Component
class McpUpstreams {
    static final String NOT_CONNECTED = "No upstream MCP server is connected to this workspace (tool connection mcp)";

    private final ToolConnections connections;

    McpUpstreams(ToolConnections connections) {
        this.connections = connections;
    }

    /** @throws JsonRpcError (as the error signal) when the workspace has no usable connection */
    Mono<McpUpstream> of(UUID workspaceId) {
        return Blocking.call(() -> {
            try {
                return connections.find(workspaceId, Tool.MCP)
                        .filter(c -> c.mcpServerUrl() != null && !c.mcpServerUrl().isBlank())
                        .map(c -> new McpUpstream(workspaceId, c.version(), c.mcpServerUrl(),
                                c.mcpTransport() == null ? McpTransport.HTTP : c.mcpTransport(), c.mcpAuthType(),
                                c.accessTokenIfSet().orElse(null)))
                        .orElseThrow(() -> JsonRpcError.upstream(NOT_CONNECTED));
            } catch (UnreadableSecretException e) {
                // fail closed, and say why without the secret
                throw JsonRpcError.upstream("The credential of the upstream MCP server cannot be opened");
            }
        });
    }
}
