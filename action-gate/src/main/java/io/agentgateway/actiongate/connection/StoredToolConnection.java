package io.agentgateway.actiongate.connection;

import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Instant;

/**
 * A row of the projector's {@code tool_connections} with the tool's pause flag joined in. The secrets
 * are still sealed (and print as redacted); {@link ToolConnections} opens them for the components that
 * must use them.
 *
 * @param version    the workspace version of the event that wrote the row
 * @param updatedBy  the user id of the admin who made the change, or null
 */
public record StoredToolConnection(
        Tool tool,
        ToolConnectionConfig config,
        SealedSecret accessToken,
        SealedSecret webhookSecret,
        String mcpServerUrl,
        McpAuthType mcpAuthType,
        McpTransport mcpTransport,
        String baseUrl,
        boolean paused,
        long version,
        Instant updatedAt,
        String updatedBy) {}
