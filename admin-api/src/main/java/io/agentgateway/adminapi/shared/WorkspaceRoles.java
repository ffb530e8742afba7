package io.agentgateway.adminapi.shared;

import io.agentgateway.schemas.Role;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * A user's role in a workspace as the projector's {@code workspace_members} shows it: what the admin API's reads and
 * its flows that are no command (a dead letter sent again, an OAuth flow started) check; the decision stream checks
 * every command again in log order. Blocking: call off the event loop.
 */
@Repository
public class WorkspaceRoles {
    private final JdbcClient jdbc;

    WorkspaceRoles(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Role> roleOf(UUID workspaceId, String userId) {
        return jdbc.sql("select role from workspace_members where workspace_id = :workspace and user_id = :user")
                .param("workspace", workspaceId)
                .param("user", userId)
                .query(String.class)
                .optional()
                .flatMap(Role::parse);
    }

    /** Whether the user is admin or owner of the workspace (a workspace that does not exist: no). */
    public boolean administers(UUID workspaceId, String userId) {
        return roleOf(workspaceId, userId).filter(role -> role == Role.OWNER || role == Role.ADMIN).isPresent();
    }
}
