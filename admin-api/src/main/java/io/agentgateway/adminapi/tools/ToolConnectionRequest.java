package io.agentgateway.adminapi.tools;

import io.agentgateway.adminapi.shared.SecretSealer;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.UpsertToolConnection;

/** A PUT of a tool connection, checked for shape; its secrets are still plain and get sealed by {@link #toCommand}. */
record ToolConnectionRequest(
        Tool tool,
        ToolConnectionConfig config,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl,
        SecretInput accessToken,
        SecretInput webhookSecret) {

    boolean setsASecret() {
        return accessToken.isSet() || webhookSecret.isSet();
    }

    UpsertToolConnection toCommand(SecretSealer sealer) {
        return new UpsertToolConnection(tool, config, mcpServerUrl, mcpAuthType, mcpTransport, baseUrl,
                accessToken.sealedWith(sealer), webhookSecret.sealedWith(sealer));
    }
}
