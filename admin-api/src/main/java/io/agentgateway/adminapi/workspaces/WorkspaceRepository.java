package io.agentgateway.adminapi.workspaces;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads every workspace from the projector's {@code workspaces} table. Blocking: call off the event loop. */
@Repository
class WorkspaceRepository {
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
}
