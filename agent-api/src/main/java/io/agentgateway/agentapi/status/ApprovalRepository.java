package io.agentgateway.agentapi.status;

import io.agentgateway.actiongate.callview.ApprovalStatusSql;
import io.agentgateway.httpedge.web.SqlRows;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code approval_requests} table. Blocking: call off the event loop. */
@Repository
class ApprovalRepository {
    private final JdbcClient jdbc;

    ApprovalRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The approval when it belongs to {@code workspaceId}; another workspace's is reported as absent. */
    Optional<ApprovalView> find(UUID approvalId, UUID workspaceId) {
        return jdbc.sql("""
                        select id, tool, action, risk_level, created_at, expires_at, reviewed_at, reviewed_by,
                               review_reason, execution_result::text as execution_result, cancel_reason, %s as status,
                               call_digest, call_view::text as call_view
                        from approval_requests
                        where id = :id and workspace_id = :workspace
                        """.formatted(ApprovalStatusSql.EFFECTIVE_STATUS))
                .param("id", approvalId)
                .param("workspace", workspaceId)
                .query((rs, row) -> new ApprovalView(
                        true,
                        rs.getString("id"),
                        rs.getString("status"),
                        SqlRows.instant(rs, "reviewed_at"),
                        rs.getString("reviewed_by"),
                        rs.getString("review_reason"),
                        SqlRows.json(rs, "execution_result"),
                        SqlRows.instant(rs, "expires_at"),
                        rs.getString("tool"),
                        rs.getString("action"),
                        rs.getString("risk_level"),
                        SqlRows.instant(rs, "created_at"),
                        rs.getString("cancel_reason"),
                        rs.getString("call_digest"),
                        SqlRows.json(rs, "call_view")))
                .optional();
    }
}
