package io.agentgateway.schemas.command;

import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;

/**
 * Create or replace the workspace's connection to {@code tool}. The non-secret fields replace the
 * stored ones (absent = unset); each secret is kept, replaced by the sealed value that comes with it,
 * or cleared ({@link SecretUpdate}; null means keep).
 */
public record UpsertToolConnection(
        Tool tool,
        ToolConnectionConfig config,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl,
        SecretUpdate accessToken,
        SecretUpdate webhookSecret) implements Command {}
