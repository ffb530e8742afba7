package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.SqlRows;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;

/** Reads the projector's {@code workspaces} table. Blocking: call off the event loop. */
@Repository
class WorkspaceRepository {
    record KillSwitchState(boolean killSwitchEnabled, List<String> pausedTools) {}

    record NotificationState(boolean chatConfigured, boolean emailEnabled) {}

    /** {@code approvalTtlSeconds} null: the decision stream's built-in TTL applies. */
    record StoredDefaults(JsonNode decisions, Long approvalTtlSeconds) {}

    private final JdbcClient jdbc;

    WorkspaceRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<KillSwitchState> killSwitch(UUID workspaceId) {
        return jdbc.sql("select kill_switch_enabled, paused_tools from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> new KillSwitchState(rs.getBoolean("kill_switch_enabled"),
                        SqlRows.textArray(rs, "paused_tools").stream().sorted().toList()))
                .optional();
    }

    Optional<NotificationState> notifications(UUID workspaceId) {
        return jdbc.sql("select chat_configured, email_enabled from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> new NotificationState(rs.getBoolean("chat_configured"), rs.getBoolean("email_enabled")))
                .optional();
    }

    Optional<StoredDefaults> defaults(UUID workspaceId) {
        return jdbc.sql("select default_decisions::text as decisions, approval_ttl_seconds from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> new StoredDefaults(SqlRows.json(rs, "decisions"), rs.getObject("approval_ttl_seconds", Long.class)))
                .optional();
    }
}
