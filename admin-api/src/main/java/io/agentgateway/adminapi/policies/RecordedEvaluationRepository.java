package io.agentgateway.adminapi.policies;

import io.agentgateway.httpedge.web.SqlRows;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * One recorded evaluation of the projector's {@code audit_log}, as the policy test replays it: its evaluation
 * fields and the command it was decided from (whose whole inputs the log has). Blocking: call off the event loop.
 */
@Repository
class RecordedEvaluationRepository {
    record RecordedEvaluation(String auditLogId, String commandId, Instant occurredAt, String tool, String action,
                              String riskLevel, String agentId, String agentIdentity, String resourceType, String resourceId,
                              String source, String requestedBy, String agentName) {}

    private final JdbcClient jdbc;

    RecordedEvaluationRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The workspace's evaluation with this audit log id (not a kill-switch or limit row), if any. */
    Optional<RecordedEvaluation> find(UUID workspaceId, UUID auditLogId) {
        return jdbc.sql("""
                        select id, command_id, occurred_at, tool, action, risk_level, agent_id, agent_identity, resource_type,
                               resource_id, source, requested_by, agent_name
                          from audit_log
                         where workspace_id = :workspace and id = :id and kind = 'action_evaluated'
                        """)
                .param("workspace", workspaceId)
                .param("id", auditLogId)
                .query((rs, row) -> new RecordedEvaluation(rs.getString("id"), rs.getString("command_id"),
                        SqlRows.instant(rs, "occurred_at"), rs.getString("tool"), rs.getString("action"),
                        rs.getString("risk_level"), rs.getString("agent_id"), rs.getString("agent_identity"),
                        rs.getString("resource_type"), rs.getString("resource_id"), rs.getString("source"),
                        rs.getString("requested_by"), rs.getString("agent_name")))
                .optional();
    }
}
