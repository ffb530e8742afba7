package io.agentgateway.console.approvals;

import io.agentgateway.actiongate.callview.ApprovalStatusSql;
import io.agentgateway.schemas.GatewayJson;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The console's reads of approvals from the projector's read model: the inbox (pending approvals of the user's
 * workspaces, soonest expiry first, on the partial index {@code approval_requests_pending_expiry}) and one approval
 * with its context (the audit row that held it, the tool's upstream). The effective status is the admin API's
 * ({@link ApprovalStatusSql}): a pending approval past its expiry is expired. Blocking: call off the event loop.
 */
@Component
public class ApprovalQueries {
    /** The columns shown of an approval ({@code a}, a row of approval_requests) with its audit row and upstream. */
    private static final String COLUMNS = """
            select a.id, a.workspace_id, w.name as workspace_name, %s as status, a.tool, a.action, a.risk_level,
                   l.risk_classification, l.supplied_risk_level, coalesce(l.risk_overridden_by_caller, false) as overridden,
                   a.agent_id, l.agent_name, l.matched_policy_id, l.matched_policy_name, l.reason, l.requested_by,
                   l.source, a.correlation_id, a.created_at, a.expires_at, a.call_view::text as call_view, a.call_digest,
                   a.held_call_kind, coalesce(tc.base_url, tc.mcp_server_url) as upstream, l.payload_excerpt,
                   coalesce(l.payload_truncated, false) as payload_truncated
            """.formatted(ApprovalStatusSql.EFFECTIVE_STATUS.replace("status", "a.status").replace("expires_at", "a.expires_at"));
    private static final String JOINS = """
              join workspaces w on w.id = a.workspace_id
              left join audit_log l on l.id = a.audit_log_id
              left join tool_connections tc on tc.workspace_id = a.workspace_id and tc.tool = a.tool
            """;

    private final JdbcClient jdbc;

    ApprovalQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A page of the inbox and how many are pending in all. */
    public record Inbox(List<PendingApproval> items, long total) {}

    public Inbox inbox(List<UUID> workspaceIds, int limit) {
        if (workspaceIds.isEmpty()) {
            return new Inbox(List.of(), 0);
        }
        // one text parameter: named-parameter expansion of arrays differs between drivers and versions
        String ids = String.join(",", workspaceIds.stream().map(UUID::toString).toList());
        // the page is chosen first (the partial index, a sort of the pending rows at most), then joined: joining every
        // pending approval to the audit log before the limit was what made a page of 10,000 slow
        List<PendingApproval> items = jdbc.sql("with page as materialized (select * from approval_requests"
                        + " where workspace_id = any(string_to_array(:workspaces, ',')::uuid[]) and status = 'pending'"
                        + " and expires_at >= now() order by expires_at, id limit :limit) "
                        + COLUMNS + " from page a " + JOINS + " order by a.expires_at, a.id")
                .param("workspaces", ids)
                .param("limit", limit)
                .query((rs, row) -> pending(rs))
                .list();
        long total = jdbc.sql("""
                        select count(*) from approval_requests
                         where workspace_id = any(string_to_array(:workspaces, ',')::uuid[]) and status = 'pending' and expires_at >= now()
                        """)
                .param("workspaces", ids)
                .query(Long.class).single();
        return new Inbox(items, total);
    }

    /** One approval of the workspace with its context; empty for another workspace's or an unknown id. */
    public Optional<PendingApproval> one(UUID workspaceId, UUID approvalId) {
        return jdbc.sql(COLUMNS + " from approval_requests a " + JOINS + " where a.id = :id and a.workspace_id = :workspace")
                .param("id", approvalId).param("workspace", workspaceId)
                .query((rs, row) -> pending(rs))
                .optional();
    }

    /** When and by whom its call was claimed (the executor), for the timeline. */
    public record Claim(Instant claimedAt, String claimedBy) {}

    public Optional<Claim> claim(UUID workspaceId, UUID approvalId) {
        return jdbc.sql("select claimed_at, claimed_by from approval_requests where id = :id and workspace_id = :workspace and claimed_at is not null")
                .param("id", approvalId).param("workspace", workspaceId)
                .query((rs, row) -> new Claim(rs.getTimestamp("claimed_at").toInstant(), rs.getString("claimed_by")))
                .optional();
    }

    private static PendingApproval pending(ResultSet rs) throws SQLException {
        JsonNode view = readJson(rs.getString("call_view"));
        return new PendingApproval(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                rs.getString("workspace_name"), rs.getString("status"), rs.getString("tool"), rs.getString("action"),
                rs.getString("risk_level"), rs.getString("risk_classification"), rs.getString("supplied_risk_level"),
                rs.getBoolean("overridden"), rs.getString("agent_id"), rs.getString("agent_name"),
                rs.getString("matched_policy_id"), rs.getString("matched_policy_name"), rs.getString("reason"),
                rs.getString("requested_by"), rs.getString("source"), rs.getString("correlation_id"),
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("expires_at")),
                new HeldCall(HeldCall.viewOf(view), rs.getString("upstream"), rs.getString("call_digest"),
                        rs.getString("held_call_kind")), rs.getString("payload_excerpt"), rs.getBoolean("payload_truncated"));
    }

    private static JsonNode readJson(String text) {
        if (text == null) {
            return null;
        }
        try {
            return GatewayJson.MAPPER.readTree(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
