package io.agentgateway.schemas;

import io.agentgateway.schemas.secret.SealedSecret;

/**
 * A workspace's connection to one tool (spec section 2), as the decision stream holds it and the
 * events carry it: the whole connection after each change, so a reader never has to merge. The two
 * secrets are sealed (SecretBox) and print as redacted. {@code paused} is not here: it belongs to the
 * kill switch (the workspace's paused tools) and is joined in when the connection is read.
 *
 * @param config        repos / org (code host), organization and team ids (issue tracker); never null
 * @param accessToken   the credential forwarded upstream, or null
 * @param webhookSecret the HMAC key of the tool's inbound webhooks (code host, issue tracker), or null
 * @param mcpServerUrl  mcp only: the upstream MCP server's HTTP or SSE endpoint
 * @param mcpAuthType   mcp only: how the token is presented (bearer by default)
 * @param mcpTransport  mcp only: sse or http
 * @param baseUrl       the upstream API's base URL, or null for the tool's usual one
 */
public record ToolConnection(
        Tool tool,
        ToolConnectionConfig config,
        SealedSecret accessToken,
        SealedSecret webhookSecret,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl) {

    public ToolConnection withWebhookSecret(SealedSecret secret) {
        return new ToolConnection(tool, config, accessToken, secret, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl);
    }
}
