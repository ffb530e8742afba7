package io.agentgateway.adminapi.members;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code workspace_members} table. Blocking: call off the event loop. */
@Repository
class MemberRepository {
    private final JdbcClient jdbc;

    MemberRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<MemberAdmin.MemberView> list(UUID workspaceId) {
        return jdbc.sql("""
                        select user_id, email, role, updated_at from workspace_members
                        where workspace_id = :workspace order by user_id
                        """)
                .param("workspace", workspaceId)
                .query((rs, row) -> new MemberAdmin.MemberView(rs.getString("user_id"), rs.getString("email"),
                        rs.getString("role"), SqlRows.instant(rs, "updated_at")))
                .list();
    }
}
