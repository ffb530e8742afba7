package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;

/**
 * {@code tool_connections}, keyed by (workspace, tool), guarded by the workspace version. Upserts and
 * rotations both carry the whole connection, so both are the same statement. The secrets are written
 * in their sealed form only.
 */
final class ToolConnectionWrites {
    private ToolConnectionWrites() {}

    private static final SqlStatement UPSERT = SqlStatement.inEventOrder("""
            insert into tool_connections (workspace_id, tool, repos, org, organization_id, team_id,
                                          sealed_access_token, sealed_webhook_secret, mcp_server_url, mcp_auth_type,
                                          mcp_transport, base_url, rules, version, updated_at, updated_by)
            select :workspace_id::uuid, :tool, :repos, :org, :organization_id, :team_id,
                   :sealed_access_token, :sealed_webhook_secret, :mcp_server_url, :mcp_auth_type,
                   :mcp_transport, :base_url, :rules::jsonb, :workspace_version, :occurred_at, :actor_user_id
             where %s
            on conflict (workspace_id, tool) do update
               set repos = excluded.repos, org = excluded.org, organization_id = excluded.organization_id,
                   team_id = excluded.team_id, sealed_access_token = excluded.sealed_access_token,
                   sealed_webhook_secret = excluded.sealed_webhook_secret, mcp_server_url = excluded.mcp_server_url,
                   mcp_auth_type = excluded.mcp_auth_type, mcp_transport = excluded.mcp_transport,
                   base_url = excluded.base_url, rules = excluded.rules, version = excluded.version, updated_at = excluded.updated_at,
                   updated_by = excluded.updated_by
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    private static final SqlStatement DELETE = SqlStatement.inEventOrder("""
            delete from tool_connections
             where workspace_id = :workspace_id::uuid and tool = :tool and %s
            """.formatted(WorkspaceVersionGuard.NOT_STALE));

    /** For tool_connection_upserted and webhook_secret_rotated. */
    static List<Write> upserted(EventEnvelope envelope, ToolConnection connection) {
        if (connection == null || connection.tool() == null) {
            throw new IllegalArgumentException("tool connection event without a connection");
        }
        ToolConnectionConfig config = connection.config() == null ? ToolConnectionConfig.none() : connection.config();
        return List.of(new Write(UPSERT, EnvelopeParams.of(envelope)
                        .wire("tool", connection.tool(), Tool::wire)
                        .textArray("repos", config.repos() == null ? List.of() : config.repos())
                        .text("org", config.org())
                        .text("organization_id", config.organizationId())
                        .text("team_id", config.teamId())
                        .text("sealed_access_token", sealed(connection.accessToken()))
                        .text("sealed_webhook_secret", sealed(connection.webhookSecret()))
                        .text("mcp_server_url", connection.mcpServerUrl())
                        .wire("mcp_auth_type", connection.mcpAuthType(), McpAuthType::wire)
                        .wire("mcp_transport", connection.mcpTransport(), McpTransport::wire)
                        .text("base_url", connection.baseUrl())
                        .json("rules", GatewayJson.MAPPER.writeValueAsString(config.rules()))
                        .source()),
                WorkspaceVersionGuard.advance(envelope));
    }

    static List<Write> deleted(EventEnvelope envelope, ToolConnectionDeleted event) {
        if (event.tool() == null) {
            throw new IllegalArgumentException("tool_connection_deleted without a tool");
        }
        return List.of(new Write(DELETE, EnvelopeParams.of(envelope).wire("tool", event.tool(), Tool::wire).source()),
                WorkspaceVersionGuard.advance(envelope));
    }

    private static String sealed(SealedSecret secret) {
        return secret == null ? null : secret.value();
    }
}
