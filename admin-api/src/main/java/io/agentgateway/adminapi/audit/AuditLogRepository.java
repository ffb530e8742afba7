package io.agentgateway.adminapi.audit;

import io.agentgateway.httpedge.web.SqlRows;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the projector's {@code audit_log} newest first, keyset-paged on (occurred_at desc, id):
 * a page never skips or repeats a row however many rows are added meanwhile. Blocking: call off the event loop.
 */
@Repository
class AuditLogRepository {
    private static final String COLUMNS = """
                select id, occurred_at, kind, tool, action, risk_level, supplied_risk_level, risk_classification,
                       risk_overridden_by_caller, decision, reason, matched_policy_id, matched_policy_name,
                       approval_request_id, agent_id, agent_name, resource_type, resource_id, requested_by, source,
                       actor_user_id, correlation_id, command_id, payload_excerpt, payload_truncated, payload_bytes,
                       undelivered, agent_identity, condition_errors::text as condition_errors
            """;

    private final JdbcClient jdbc;

    AuditLogRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    AuditPage page(UUID workspaceId, AuditLogQuery query) {
        StringBuilder sql = new StringBuilder(COLUMNS + " from audit_log where workspace_id = :workspace\n");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("workspace", workspaceId);
        if (query.correlationId() != null) {
            sql.append(" and correlation_id = :correlationId");
            params.put("correlationId", query.correlationId());
        }
        if (query.agentId() != null) {
            sql.append(" and agent_id = :agentId");
            params.put("agentId", query.agentId());
        }
        if (query.tool() != null) {
            sql.append(" and tool = :tool");
            params.put("tool", query.tool().wire());
        }
        if (query.decision() != null) {
            sql.append(" and decision = :decision");
            params.put("decision", query.decision().wire());
        }
        if (query.action() != null) {
            sql.append(" and action = :action");
            params.put("action", query.action());
        }
        if (query.riskLevel() != null) {
            sql.append(" and risk_level = :risk");
            params.put("risk", query.riskLevel().wire());
        }
        if (query.source() != null) {
            sql.append(" and source = :source");
            params.put("source", query.source().wire());
        }
        if (query.undelivered() != null) {
            sql.append(query.undelivered() ? " and undelivered" : " and not undelivered");
        }
        if (query.from() != null) {
            sql.append(" and occurred_at >= :from");
            params.put("from", utc(query.from()));
        }
        if (query.to() != null) {
            sql.append(" and occurred_at < :to");
            params.put("to", utc(query.to()));
        }
        if (query.cursor() != null) {
            sql.append(" and (occurred_at < :cursorAt or (occurred_at = :cursorAt and id > :cursorId))");
            params.put("cursorAt", utc(query.cursor().occurredAt()));
            params.put("cursorId", query.cursor().id());
        }
        // one row more than asked tells whether there is a next page
        sql.append(" order by occurred_at desc, id limit :limit");
        params.put("limit", query.limit() + 1);

        List<AuditEntry> rows = new ArrayList<>(jdbc.sql(sql.toString()).params(params).query(AuditLogRepository::entry).list());
        if (rows.size() <= query.limit()) {
            return new AuditPage(rows, null);
        }
        List<AuditEntry> page = rows.subList(0, query.limit());
        AuditEntry last = page.get(page.size() - 1);
        return new AuditPage(List.copyOf(page), new AuditCursor(last.occurredAt(), UUID.fromString(last.id())));
    }

    /** One row of the workspace by its id, if any. */
    Optional<AuditEntry> find(UUID workspaceId, UUID id) {
        return jdbc.sql(COLUMNS + " from audit_log where workspace_id = :workspace and id = :id")
                .param("workspace", workspaceId).param("id", id)
                .query(AuditLogRepository::entry).optional();
    }

    private static AuditEntry entry(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new AuditEntry(
                rs.getString("id"), SqlRows.instant(rs, "occurred_at"), rs.getString("kind"), rs.getString("tool"),
                rs.getString("action"), rs.getString("risk_level"), rs.getString("supplied_risk_level"),
                rs.getString("risk_classification"), rs.getBoolean("risk_overridden_by_caller"), rs.getString("decision"),
                rs.getString("reason"), rs.getString("matched_policy_id"), rs.getString("matched_policy_name"),
                rs.getString("approval_request_id"), rs.getString("agent_id"), rs.getString("agent_name"),
                rs.getString("resource_type"), rs.getString("resource_id"), rs.getString("requested_by"),
                rs.getString("source"), rs.getString("actor_user_id"), rs.getString("correlation_id"),
                rs.getString("command_id"), rs.getString("payload_excerpt"), rs.getBoolean("payload_truncated"),
                rs.getObject("payload_bytes", Integer.class), rs.getBoolean("undelivered"),
                rs.getString("agent_identity"), SqlRows.json(rs, "condition_errors"));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
