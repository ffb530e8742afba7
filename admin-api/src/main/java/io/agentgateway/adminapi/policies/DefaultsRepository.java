package io.agentgateway.adminapi.policies;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;

/** Reads a workspace's defaults from the projector's {@code workspaces} table. Blocking: call off the event loop. */
@Repository
class DefaultsRepository {
    /** {@code approvalTtlSeconds} null: the decision stream's built-in TTL applies. */
    record StoredDefaults(JsonNode decisions, Long approvalTtlSeconds, String timeZone) {}

    private final JdbcClient jdbc;

    DefaultsRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Empty when the workspace does not exist. */
    Optional<StoredDefaults> defaults(UUID workspaceId) {
        return jdbc.sql("""
                        select default_decisions::text as decisions, approval_ttl_seconds, time_zone from workspaces where id = :id""")
                .param("id", workspaceId)
                .query((rs, row) -> new StoredDefaults(SqlRows.json(rs, "decisions"), rs.getObject("approval_ttl_seconds", Long.class),
                        rs.getString("time_zone")))
                .optional();
    }
}
