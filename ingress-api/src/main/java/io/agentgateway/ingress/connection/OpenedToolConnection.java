package io.agentgateway.ingress.connection;

import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Optional;

/**
 * A tool connection ready for use by the proxy, the MCP gate and the webhook verifier: the secrets
 * opened, in {@link PlainSecret}s that neither print nor serialize. Keep it in memory only, for the
 * one request that needs it.
 *
 * @param paused  whether the kill switch has paused the tool (decisions block it; this is for display
 *                and early refusal, the decision stream remains the authority)
 */
public record OpenedToolConnection(
        Tool tool,
        ToolConnectionConfig config,
        PlainSecret accessToken,
        PlainSecret webhookSecret,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl,
        boolean paused,
        long version) {

    public Optional<PlainSecret> accessTokenIfSet() {
        return Optional.ofNullable(accessToken);
    }

    public Optional<PlainSecret> webhookSecretIfSet() {
        return Optional.ofNullable(webhookSecret);
    }
}
