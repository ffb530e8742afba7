package io.agentgateway.ingress.mcp;

import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.UUID;

/**
 * A workspace's upstream MCP server as its {@code mcp} tool connection describes it.
 *
 * @param version  the workspace version of the event that wrote the connection: a change makes a new
 *                 client and drops the cached {@code tools/list}
 * @param token    the stored credential, or null when none is stored
 */
record McpUpstream(UUID workspaceId, long version, String serverUrl, McpTransport transport, McpAuthType authType,
                   PlainSecret token) {

    /** The Authorization header value of spec 4.3 rule 2, or null without a token. */
    String authorization() {
        if (token == null) {
            return null;
        }
        return (authType == McpAuthType.TOKEN ? "token " : "Bearer ") + token.reveal();
    }
}
