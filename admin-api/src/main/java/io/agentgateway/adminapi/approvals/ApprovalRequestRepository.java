package io.agentgateway.adminapi.approvals;

import io.agentgateway.actiongate.callview.ApprovalStatusSql;
import io.agentgateway.httpedge.web.SqlRows;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads the projector's {@code approval_requests} for reviewers. Blocking: call off the event loop. */
@Repository
class ApprovalRequestRepository {
    private static final String COLUMNS = """
            id, %s as status, tool, action, risk_level, agent_id, audit_log_id, correlation_id,
            held_call_kind, created_at, expires_at, reviewed_at, reviewed_by, review_reason,
            executed_at, execution_result::text as execution_result, cancelled_at, cancel_reason,
            call_digest, call_view::text as call_view""".formatted(ApprovalStatusSql.EFFECTIVE_STATUS);

    private final JdbcClient jdbc;

    ApprovalRequestRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Newest first; {@code status} filters on the status a reader sees (null: every status). */
    List<ApprovalItem> list(UUID workspaceId, ApprovalListQuery query) {
        String sql = """
                select * from (
                    select %s
                      from approval_requests where workspace_id = :workspace
                ) approvals
                where (cast(:status as text) is null or status = :status)
                order by created_at desc, id
                limit :limit
                """.formatted(COLUMNS);
        return jdbc.sql(sql)
                .param("workspace", workspaceId)
                .param("status", query.status())
                .param("limit", query.limit())
                .query((rs, row) -> item(rs))
                .list();
    }

    /** One approval of the workspace, as the list shows it; empty for another workspace's or an unknown id. */
    Optional<ApprovalItem> find(UUID workspaceId, UUID approvalId) {
        return jdbc.sql("select %s from approval_requests where id = :id and workspace_id = :workspace".formatted(COLUMNS))
                .param("id", approvalId)
                .param("workspace", workspaceId)
                .query((rs, row) -> item(rs))
                .optional();
    }

    private static ApprovalItem item(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ApprovalItem(rs.getString("id"), rs.getString("status"), rs.getString("tool"),
                rs.getString("action"), rs.getString("risk_level"), rs.getString("agent_id"),
                rs.getString("audit_log_id"), rs.getString("correlation_id"), rs.getString("held_call_kind"),
                SqlRows.instant(rs, "created_at"), SqlRows.instant(rs, "expires_at"),
                SqlRows.instant(rs, "reviewed_at"), rs.getString("reviewed_by"), rs.getString("review_reason"),
                SqlRows.instant(rs, "executed_at"), SqlRows.json(rs, "execution_result"),
                SqlRows.instant(rs, "cancelled_at"), rs.getString("cancel_reason"), rs.getString("call_digest"),
                SqlRows.json(rs, "call_view"));
    }

    /** The status a reader sees of an approval, and its expiry. */
    record StatusSeen(String status, Instant expiresAt) {}

    /** The status a reader sees of the workspace's approval, empty when the workspace has no such approval. */
    Optional<StatusSeen> statusOf(UUID workspaceId, UUID approvalId) {
        return jdbc.sql("select %s as status, expires_at from approval_requests where id = :id and workspace_id = :workspace"
                        .formatted(ApprovalStatusSql.EFFECTIVE_STATUS))
                .param("id", approvalId)
                .param("workspace", workspaceId)
                .query((rs, row) -> new StatusSeen(rs.getString("status"), SqlRows.instant(rs, "expires_at")))
                .optional();
    }
}
