package io.agentgateway.adminapi.notifications;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads a workspace's notification settings from the projector's read models. Blocking: call off the event loop. */
@Repository
class NotificationSettingsRepository {
    record NotificationState(boolean chatConfigured, boolean emailEnabled) {}

    private final JdbcClient jdbc;

    NotificationSettingsRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Empty when the workspace does not exist. */
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
}
