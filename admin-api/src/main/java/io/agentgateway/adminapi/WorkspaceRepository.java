package io.agentgateway.adminapi;

import io.agentgateway.httpedge.web.SqlRows;
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
    record StoredDefaults(JsonNode decisions, Long approvalTtlSeconds, String timeZone) {}

    private final JdbcClient jdbc;

    WorkspaceRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The first {@code limit} workspaces by creation (oldest first), with their owners' user ids. */
    List<Workspaces.WorkspaceSummary> list(int limit) {
        return jdbc.sql("""
                        select w.id::text as id, w.name, w.created_at, w.kill_switch_enabled,
                               coalesce(array_agg(m.user_id order by m.user_id) filter (where m.user_id is not null),
                                        '{}') as owners
                          from workspaces w
                          left join workspace_members m on m.workspace_id = w.id and m.role = 'owner'
                         group by w.id
                         order by w.created_at, w.id
                         limit :limit""")
                .param("limit", limit)
                .query((rs, row) -> new Workspaces.WorkspaceSummary(rs.getString("id"), rs.getString("name"),
                        SqlRows.instant(rs, "created_at"), rs.getBoolean("kill_switch_enabled"),
                        SqlRows.textArray(rs, "owners")))
                .list();
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

    /** The emails of the admins and owners: where the decision stream sends email notifications (read model). */
    List<String> administratorEmails(UUID workspaceId) {
        return jdbc.sql("""
                        select distinct email from workspace_members
                         where workspace_id = :id and role in ('owner', 'admin') and email is not null and email <> ''
                         order by email""")
                .param("id", workspaceId)
                .query(String.class)
                .list();
    }

    Optional<StoredDefaults> defaults(UUID workspaceId) {
        return jdbc.sql("""
                        select default_decisions::text as decisions, approval_ttl_seconds, time_zone from workspaces where id = :id""")
                .param("id", workspaceId)
                .query((rs, row) -> new StoredDefaults(SqlRows.json(rs, "decisions"), rs.getObject("approval_ttl_seconds", Long.class),
                        rs.getString("time_zone")))
                .optional();
    }
}
