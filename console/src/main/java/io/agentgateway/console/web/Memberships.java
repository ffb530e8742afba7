package io.agentgateway.console.web;

import io.agentgateway.schemas.Role;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The workspaces a user may read in the console, from the projected membership (as the admin API's reads check it):
 * owner, admin, reviewer or viewer. Blocking: call off the event loop.
 */
@Component
public class Memberships {
    private final JdbcClient jdbc;

    Memberships(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public List<Membership> of(String userId) {
        return jdbc.sql("""
                        select m.workspace_id, w.name, m.role
                          from workspace_members m join workspaces w on w.id = m.workspace_id
                         where m.user_id = :user and m.role in ('owner', 'admin', 'reviewer', 'viewer')
                         order by w.name, m.workspace_id
                        """)
                .param("user", userId)
                .query((rs, row) -> new Membership(rs.getObject("workspace_id", UUID.class), rs.getString("name"),
                        Role.parse(rs.getString("role")).orElseThrow()))
                .list();
    }
}
