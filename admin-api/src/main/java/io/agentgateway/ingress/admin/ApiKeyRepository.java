package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.SqlRows;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code api_keys} table, never the hash. Blocking: call off the event loop. */
@Repository
class ApiKeyRepository {
    /** {@code agentId} / {@code agentIdPattern}: the agent the key is bound to, null for none. */
    record ApiKeyView(String keyId, String name, List<String> scopes, Instant expiresAt, Instant revokedAt, Instant createdAt,
                      String agentId, String agentIdPattern) {}

    private final JdbcClient jdbc;

    ApiKeyRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<ApiKeyView> list(UUID workspaceId) {
        return jdbc.sql("""
                        select key_id, name, scopes, expires_at, revoked_at, created_at, agent_id, agent_id_pattern from api_keys
                        where workspace_id = :workspace order by created_at desc, key_id
                        """)
                .param("workspace", workspaceId)
                .query((rs, row) -> new ApiKeyView(rs.getString("key_id"), rs.getString("name"),
                        SqlRows.textArray(rs, "scopes"), SqlRows.instant(rs, "expires_at"),
                        SqlRows.instant(rs, "revoked_at"), SqlRows.instant(rs, "created_at"), rs.getString("agent_id"),
                        rs.getString("agent_id_pattern")))
                .list();
    }
}
