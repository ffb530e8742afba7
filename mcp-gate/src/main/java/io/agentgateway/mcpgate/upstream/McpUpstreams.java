package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * A workspace's upstream MCP server from its {@code mcp} tool connection, as the decision stream holds
 * it (the connection view): never from the read model. A {@code tools/call} uses the connection its
 * evaluation named (and the stream decided on), a held call the one its claim was granted with, and a
 * {@code tools/list} the one its key check confirmed.
 */
@Component
public class McpUpstreams {
    static final String NOT_CONNECTED = "No upstream MCP server is connected to this workspace (tool connection mcp)";

    private final ConnectionAccess access;

    McpUpstreams(ConnectionAccess access) {
        this.access = access;
    }

    /** The upstream as the view holds it now. @throws JsonRpcError -32002 when the workspace has none */
    McpUpstream current(UUID workspaceId) {
        return of(workspaceId, access.known(workspaceId, Tool.MCP));
    }

    /** @throws JsonRpcError -32002 when there is no connection or it names no server */
    public static McpUpstream of(UUID workspaceId, Known known) {
        return of(workspaceId, known.connection());
    }

    public static McpUpstream of(UUID workspaceId, ToolConnection connection) {
        if (connection == null || connection.mcpServerUrl() == null || connection.mcpServerUrl().isBlank()) {
            throw JsonRpcError.upstream(NOT_CONNECTED);
        }
        return new McpUpstream(workspaceId, ToolConnection.versionOf(connection), connection.mcpServerUrl(),
                connection.mcpTransport() == null ? McpTransport.HTTP : connection.mcpTransport(), connection.mcpAuthType(),
                connection.accessToken());
    }
}
