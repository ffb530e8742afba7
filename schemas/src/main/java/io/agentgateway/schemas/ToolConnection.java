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
 * @param version       the workspace version of the connection's last change (set by the decision stream);
 *                      null only in connections stored before versions were recorded, which count as
 *                      {@link #UNVERSIONED}. Entry points name it in the commands whose execution uses the
 *                      connection, and the stream answers {@code stale} when it is not the current one.
 */
public record ToolConnection(
        Tool tool,
        ToolConnectionConfig config,
        SealedSecret accessToken,
        SealedSecret webhookSecret,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl,
        Long version) {

    /** The version an entry point names when it holds no connection to the tool. */
    public static final long NONE = 0;
    /**
     * The version of a connection stored before versions were recorded. No real change has it: version 1 is
     * the workspace's creation, which makes no connection.
     */
    public static final long UNVERSIONED = 1;

    /** A connection without a recorded version (as written before versions existed, or before the stream sets it). */
    public ToolConnection(Tool tool, ToolConnectionConfig config, SealedSecret accessToken, SealedSecret webhookSecret,
                          String mcpServerUrl, McpAuthType mcpAuthType, McpTransport mcpTransport, String baseUrl) {
        this(tool, config, accessToken, webhookSecret, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl, null);
    }

    /** The version of {@code connection} as commands name it: {@link #NONE} for no connection. */
    public static long versionOf(ToolConnection connection) {
        if (connection == null) {
            return NONE;
        }
        return connection.version == null ? UNVERSIONED : connection.version;
    }

    public ToolConnection withWebhookSecret(SealedSecret secret) {
        return new ToolConnection(tool, config, accessToken, secret, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl, version);
    }

    public ToolConnection withAccessToken(SealedSecret token) {
        return new ToolConnection(tool, config, token, webhookSecret, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl, version);
    }

    public ToolConnection withVersion(long newVersion) {
        return new ToolConnection(tool, config, accessToken, webhookSecret, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl,
                newVersion);
    }
}
