package io.agentgateway.adminapi.policies;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code policies} table. Blocking: call off the event loop. */
@Repository
class PolicyRepository {
    private final JdbcClient jdbc;

    PolicyRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** In evaluation order: priority, then id. */
    List<PolicyAdmin.PolicyView> list(UUID workspaceId) {
        return jdbc.sql("""
                        select policy_id, name, priority, enabled, decision, match::text as match, description, condition,
                               updated_at
                        from policies where workspace_id = :workspace order by priority, policy_id
                        """)
                .param("workspace", workspaceId)
                .query((rs, row) -> new PolicyAdmin.PolicyView(rs.getString("policy_id"), rs.getString("name"), rs.getInt("priority"),
                        rs.getBoolean("enabled"), rs.getString("decision"), SqlRows.json(rs, "match"),
                        rs.getString("description"), rs.getString("condition"), SqlRows.instant(rs, "updated_at")))
                .list();
    }
}
