package io.agentgateway.mcpgate.task;

import io.agentgateway.mcpgate.task.McpTask.ApprovalFacts;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.IngressTables;
import io.agentgateway.httpedge.web.SqlRows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where tasks are read from, all blocking (call off the event loop): the projector's {@code approval_requests} (the
 * task of a held call is its approval, bound to the key that asked: {@code requested_by_key_hash}), and the ingress's
 * own {@code ingress.mcp_task_results} (the kept result of an allowed call a 2025-11-25 client asked for as a task).
 * Every read names the workspace and the key: another key's task is not found.
 */
@Component
class McpTaskRecords {
    private static final String APPROVAL_COLUMNS = """
            a.id::text as id, a.status, a.created_at, a.updated_at, a.expires_at, a.reviewed_by, a.review_reason,
            a.execution_result::text as execution_result, a.cancel_reason, a.correlation_id,
            a.audit_log_id::text as audit_log_id""";
    private static final String HELD_TOOL_CALLS = "a.held_call_kind = 'mcp_tool_call'";
    /** Expired allowed-call results are deleted at most this often per replica. */
    private static final Duration PURGE_EVERY = Duration.ofMinutes(1);

    private final JdbcClient jdbc;
    private final IngressTables tables;
    private final AtomicLong lastPurge = new AtomicLong();

    McpTaskRecords(JdbcClient jdbc, IngressTables tables) {
        this.jdbc = jdbc;
        this.tables = tables;
    }

    /**
     * The ingress's own tables, migrated on first use; a database that cannot be reached then is a
     * {@link DataAccessException} like every other read here (the gate answers -32603 and logs why at WARN).
     */
    private void tablesReady() {
        try {
            tables.ready();
        } catch (org.flywaydb.core.api.FlywayException unreachable) {
            throw new DataAccessResourceFailureException("the ingress's tables cannot be migrated", unreachable);
        }
    }

    /** A task row of either kind, for {@code tasks/list}: an approval's facts, or an allowed call's kept result. */
    record Listed(ApprovalFacts approval, String taskId, Instant createdAt, ObjectNode allowedResult) {}

    /** A held call's approval that this key of this workspace asked for, as the read model has it. */
    Optional<ApprovalFacts> approval(UUID workspaceId, String keyHash, UUID approvalId) {
        return jdbc.sql("select " + APPROVAL_COLUMNS + """
                        , l.matched_policy_id
                          from approval_requests a left join audit_log l on l.id = a.audit_log_id
                         where a.id = :id and a.workspace_id = :workspace and a.requested_by_key_hash = :key and\s"""
                        + HELD_TOOL_CALLS)
                .param("id", approvalId).param("workspace", workspaceId).param("key", keyHash)
                .query((rs, row) -> facts(rs, rs.getString("matched_policy_id")))
                .optional();
    }

    /**
     * The approvals of several tasks in one read (what this replica watches), each with its workspace and key so the
     * caller can check whose it is.
     */
    List<Owned> approvals(List<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("select " + APPROVAL_COLUMNS + """
                        , l.matched_policy_id, a.workspace_id::text as workspace_id, a.requested_by_key_hash
                          from approval_requests a left join audit_log l on l.id = a.audit_log_id
                         where a.id = any(cast(:ids as uuid[])) and\s""" + HELD_TOOL_CALLS)
                .param("ids", ids.stream().map(UUID::toString).toArray(String[]::new))
                .query((rs, row) -> new Owned(rs.getString("workspace_id"), rs.getString("requested_by_key_hash"),
                        facts(rs, rs.getString("matched_policy_id"))))
                .list();
    }

    /** An approval with the workspace and the key it belongs to. */
    record Owned(String workspaceId, String keyHash, ApprovalFacts facts) {}

    /** The kept result of an allowed call this key asked for as a task, while it is kept. */
    Optional<Listed> allowedResult(UUID workspaceId, String keyHash, UUID taskId) {
        tablesReady();
        return jdbc.sql("""
                        select task_id::text as task_id, created_at, result::text as result from ingress.mcp_task_results
                         where task_id = :id and workspace_id = :workspace and key_hash = :key and expires_at > now()""")
                .param("id", taskId).param("workspace", workspaceId).param("key", keyHash)
                .query((rs, row) -> new Listed(null, rs.getString("task_id"), SqlRows.instant(rs, "created_at"),
                        (ObjectNode) SqlRows.json(rs, "result")))
                .optional();
    }

    /** Keeps an allowed call's result for its task (a retried call with the same task id replaces it). */
    void keepAllowedResult(UUID taskId, UUID workspaceId, String keyHash, Instant createdAt, Instant expiresAt,
                           String status, ObjectNode result) {
        tablesReady();
        jdbc.sql("""
                        insert into ingress.mcp_task_results (task_id, workspace_id, key_hash, created_at, expires_at, status, result)
                        values (:id, :workspace, :key, :created, :expires, :status, cast(:result as jsonb))
                        on conflict (task_id) do update set created_at = excluded.created_at, expires_at = excluded.expires_at,
                            status = excluded.status, result = excluded.result
                         where mcp_task_results.workspace_id = excluded.workspace_id
                           and mcp_task_results.key_hash = excluded.key_hash""")
                .param("id", taskId).param("workspace", workspaceId).param("key", keyHash)
                .param("created", OffsetDateTime.ofInstant(createdAt, ZoneOffset.UTC))
                .param("expires", OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC))
                .param("status", status)
                .param("result", IngressJson.RESPONSES.writeValueAsString(result))
                .update();
        long now = System.nanoTime();
        long last = lastPurge.get();
        if (now - last > PURGE_EVERY.toNanos() && lastPurge.compareAndSet(last, now)) {
            jdbc.sql("delete from ingress.mcp_task_results where expires_at < now()").update();
        }
    }

    /**
     * One page of this key's tasks, newest first: its held calls' approvals and its kept allowed results, after
     * {@code after} (the last task of the previous page; null: from the newest).
     */
    List<Listed> page(UUID workspaceId, String keyHash, Cursor after, int size) {
        tablesReady();
        String tasks = """
                select a.id as task_id, a.id::text as id, a.status, a.created_at, a.updated_at, a.expires_at, a.reviewed_by,
                       a.review_reason, a.execution_result::text as execution_result, a.cancel_reason, a.correlation_id,
                       a.audit_log_id::text as audit_log_id, null::text as result
                  from approval_requests a
                 where a.workspace_id = :workspace and a.requested_by_key_hash = :key and\s""" + HELD_TOOL_CALLS + """

                union all
                select r.task_id, r.task_id::text, r.status, r.created_at, r.created_at, r.expires_at, null, null, null, null,
                       null, null, r.result::text
                  from ingress.mcp_task_results r
                 where r.workspace_id = :workspace and r.key_hash = :key and r.expires_at > now()
                """;
        String page = "select * from (" + tasks + ") t"
                + (after == null ? "" : " where (t.created_at, t.task_id) < (:after_at, :after_id)")
                + " order by t.created_at desc, t.task_id desc limit :size";
        JdbcClient.StatementSpec statement = jdbc.sql(page)
                .param("workspace", workspaceId).param("key", keyHash).param("size", size);
        if (after != null) {
            statement = statement.param("after_at", OffsetDateTime.ofInstant(after.createdAt(), ZoneOffset.UTC))
                    .param("after_id", after.taskId());
        }
        return statement.query((rs, row) -> {
            String result = rs.getString("result");
            if (result != null) {
                return new Listed(null, rs.getString("id"), SqlRows.instant(rs, "created_at"),
                        (ObjectNode) IngressJson.REQUESTS.readTree(result));
            }
            ApprovalFacts facts = facts(rs, null);
            return new Listed(facts, facts.approvalId(), facts.createdAt(), null);
        }).list();
    }

    /** Where a {@code tasks/list} page starts: after this task (newest first). */
    record Cursor(Instant createdAt, UUID taskId) {}

    private static ApprovalFacts facts(ResultSet rs, String matchedPolicyId) throws SQLException {
        return new ApprovalFacts(rs.getString("id"), rs.getString("status"), SqlRows.instant(rs, "created_at"),
                SqlRows.instant(rs, "updated_at"), SqlRows.instant(rs, "expires_at"), rs.getString("reviewed_by"),
                rs.getString("review_reason"), SqlRows.json(rs, "execution_result"), rs.getString("cancel_reason"),
                rs.getString("correlation_id"), rs.getString("audit_log_id"), matchedPolicyId, false);
    }
}
