package io.agentgateway.benchmark.data;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Fills {@code audit_log} directly, as the projector would have after that many evaluations: rows a
 * millisecond apart with varied tools, decisions and agents, a payload excerpt of JSON text with
 * commas and quotes (~300 bytes, so CSV must quote it) and policy versions. Generated inside
 * PostgreSQL ({@code generate_series}), so a million rows take seconds and no memory here.
 */
public final class AuditRowsFiller {
    private static final int BATCH = 100_000;

    private AuditRowsFiller() {}

    public static void fill(Connection connection, UUID workspaceId, Instant start, int rows) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind, tool,
                    action, risk_level, supplied_risk_level, risk_classification, decision, reason, matched_policy_id,
                    matched_policy_name, agent_id, agent_name, source, payload_excerpt, payload_truncated, payload_bytes,
                    policy_set_version, workspace_version)
                select gen_random_uuid(), ?, gen_random_uuid(), 'bench-' || i, gen_random_uuid()::text,
                    ? + i * interval '1 millisecond', 'action_evaluated',
                    (array['code_host','issue_tracker','chat','docs','internal_api','mcp'])[1 + i % 6],
                    'resource.update', (array['low','medium','high','critical'])[1 + i % 4], 'low', 'caller_supplied',
                    (array['allow','allow','block','require_approval'])[1 + i % 4],
                    'Matched policy "bench, ' || (i % 7) || '"', 'policy-' || (i % 7), 'bench, ' || (i % 7),
                    'agent-' || (i % 50), 'Bench Agent ' || (i % 50), 'evaluate',
                    '{"channel":"#ops","text":"message ' || i || ', with \\"quotes\\", commas and a tab\\t","n":' || i
                        || ',"pad":"' || repeat('x', 200) || '"}',
                    false, 300, 1 + i / 100000, 1 + i / 50000
                from generate_series(?, ?) as i
                """)) {
            for (int from = 0; from < rows; from += BATCH) {
                insert.setObject(1, workspaceId);
                insert.setObject(2, start.atOffset(ZoneOffset.UTC));
                insert.setInt(3, from);
                insert.setInt(4, Math.min(from + BATCH, rows) - 1);
                insert.executeUpdate();
            }
        }
        try (Statement analyze = connection.createStatement()) {
            analyze.execute("analyze audit_log");
        }
    }
}
