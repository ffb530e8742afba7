package io.agentgateway.mcpgate.upstream;

import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.UUID;

/**
 * A workspace's upstream MCP server as its {@code mcp} tool connection describes it, as the decision
 * stream holds it.
 *
 * @param version  the connection's version: a change makes a new client and drops the cached {@code tools/list}
 * @param token    the stored credential, still sealed (opened when a client for this version is made), or null
 */
public record McpUpstream(UUID workspaceId, long version, String serverUrl, McpTransport transport, McpAuthType authType,
                   SealedSecret token) {

    /** The Authorization header value of spec 4.3 rule 2 for the opened token, or null without one. */
    String authorization(PlainSecret opened) {
        if (opened == null) {
            return null;
        }
        return (authType == McpAuthType.TOKEN ? "token " : "Bearer ") + opened.reveal();
    }
}
