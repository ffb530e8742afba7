package io.agentgateway.ingresstestsupport;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Writes read-model rows as the projector would, for the read endpoints' tests. */
public final class ReadModelRows {
    private final JdbcClient jdbc;

    public ReadModelRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public UUID workspace(String name) {
        UUID id = UUID.randomUUID();
        jdbc.sql("insert into workspaces (id, name, created_at, updated_at) values (:id, :name, now(), now())")
                .param("id", id).param("name", name).update();
        return id;
    }

    public void member(UUID workspaceId, String userId, String role) {
        jdbc.sql("""
                        insert into workspace_members (workspace_id, user_id, email, role, updated_at)
                        values (:ws, :user, :email, :role, now())
                        """)
                .param("ws", workspaceId).param("user", userId).param("email", userId + "@example.test")
                .param("role", role).update();
    }

    public UUID apiKey(UUID workspaceId, String keyHash, Instant expiresAt, Instant revokedAt, String... scopes) {
        UUID keyId = UUID.randomUUID();
        jdbc.sql("""
                        insert into api_keys (key_id, workspace_id, name, key_hash, scopes, expires_at, revoked_at, created_at)
                        values (:id, :ws, 'test key', :hash, :scopes, :expires, :revoked, now())
                        """)
                .param("id", keyId).param("ws", workspaceId).param("hash", keyHash)
                .param("scopes", scopes.length == 0 ? new String[] {"evaluate"} : scopes)
                .param("expires", utc(expiresAt)).param("revoked", utc(revokedAt)).update();
        return keyId;
    }

    public void workspaceState(UUID workspaceId, boolean killSwitch, String pausedToolsArray, String defaultsJson, Long ttlSeconds) {
        jdbc.sql("""
                        update workspaces set kill_switch_enabled = :kill, paused_tools = cast(:paused as text[]),
                            default_decisions = cast(:defaults as jsonb), approval_ttl_seconds = :ttl
                        where id = :id
                        """)
                .param("kill", killSwitch).param("paused", pausedToolsArray).param("defaults", defaultsJson)
                .param("ttl", ttlSeconds).param("id", workspaceId).update();
    }

    public UUID approval(UUID workspaceId, String status, Instant expiresAt, String executionResultJson) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                        insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                            agent_id, call_digest, status, created_at, expires_at, reviewed_at, reviewed_by, review_reason,
                            execution_result, updated_at)
                        values (:id, :ws, :audit, :corr, 'mcp', 'delete_repo', 'high', 'agent-1', 'digest', :status,
                            now(), :expires, :reviewedAt, :reviewedBy, :reason, cast(:result as jsonb), now())
                        """)
                .param("id", id).param("ws", workspaceId).param("audit", UUID.randomUUID())
                .param("corr", UUID.randomUUID().toString()).param("status", status).param("expires", utc(expiresAt))
                .param("reviewedAt", executionResultJson == null ? null : utc(Instant.parse("2030-01-01T10:00:00Z")))
                .param("reviewedBy", executionResultJson == null ? null : "reviewer-1")
                .param("reason", executionResultJson == null ? null : "looks fine")
                .param("result", executionResultJson).update();
        return id;
    }

    public void policy(UUID workspaceId, UUID policyId, String name, int priority, String decision, String matchJson) {
        jdbc.sql("""
                        insert into policies (workspace_id, policy_id, name, priority, enabled, decision, match, description, updated_at)
                        values (:ws, :id, :name, :priority, true, :decision, cast(:match as jsonb), null, now())
                        """)
                .param("ws", workspaceId).param("id", policyId).param("name", name).param("priority", priority)
                .param("decision", decision).param("match", matchJson).update();
    }

    public UUID audit(UUID workspaceId, Instant occurredAt, String tool, String decision, String agentId, String correlationId) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                        insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind,
                            tool, action, risk_level, decision, agent_id, source)
                        values (:id, :ws, :event, :command, :corr, :at, 'action_evaluated', :tool, 'issues.create',
                            'medium', :decision, :agent, 'evaluate')
                        """)
                .param("id", id).param("ws", workspaceId).param("event", UUID.randomUUID())
                .param("command", UUID.randomUUID().toString()).param("corr", correlationId).param("at", utc(occurredAt))
                .param("tool", tool).param("decision", decision).param("agent", agentId).update();
        return id;
    }

    /** A tool_connections row; the sealed values are stored as given (the projector stores SecretBox output). */
    public void toolConnection(UUID workspaceId, String tool, String[] repos, String org, String sealedAccessToken,
                               String sealedWebhookSecret, String mcpServerUrl, String mcpAuthType, String mcpTransport,
                               String baseUrl, long version) {
        jdbc.sql("""
                        insert into tool_connections (workspace_id, tool, repos, org, sealed_access_token, sealed_webhook_secret,
                            mcp_server_url, mcp_auth_type, mcp_transport, base_url, version, updated_at, updated_by)
                        values (:ws, :tool, :repos, :org, :token, :secret, :mcpUrl, :authType, :transport, :baseUrl, :version,
                            now(), 'owner-1')
                        """)
                .param("ws", workspaceId).param("tool", tool).param("repos", repos).param("org", org)
                .param("token", sealedAccessToken).param("secret", sealedWebhookSecret).param("mcpUrl", mcpServerUrl)
                .param("authType", mcpAuthType).param("transport", mcpTransport).param("baseUrl", baseUrl)
                .param("version", version).update();
    }

    /** Sets a stored connection's classification rules, as the projector writes them (a JSON array). */
    public void toolConnectionRules(UUID workspaceId, String tool, String rulesJson) {
        jdbc.sql("update tool_connections set rules = :rules::jsonb where workspace_id = :ws and tool = :tool")
                .param("rules", rulesJson).param("ws", workspaceId).param("tool", tool).update();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
