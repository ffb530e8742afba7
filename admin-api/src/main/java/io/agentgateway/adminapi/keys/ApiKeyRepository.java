package io.agentgateway.adminapi.keys;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code api_keys} table, never the hash. Blocking: call off the event loop. */
@Repository
class ApiKeyRepository {
    private final JdbcClient jdbc;

    ApiKeyRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<ApiKeyAdmin.ApiKeyView> list(UUID workspaceId) {
        return jdbc.sql("""
                        select key_id, name, scopes, expires_at, revoked_at, created_at, agent_id, agent_id_pattern, last_used_at
                          from api_keys
                        where workspace_id = :workspace order by created_at desc, key_id
                        """)
                .param("workspace", workspaceId)
                .query((rs, row) -> new ApiKeyAdmin.ApiKeyView(rs.getString("key_id"), rs.getString("name"),
                        SqlRows.textArray(rs, "scopes"), SqlRows.instant(rs, "expires_at"),
                        SqlRows.instant(rs, "revoked_at"), SqlRows.instant(rs, "created_at"), rs.getString("agent_id"),
                        rs.getString("agent_id_pattern"), SqlRows.instant(rs, "last_used_at")))
                .list();
    }
}
