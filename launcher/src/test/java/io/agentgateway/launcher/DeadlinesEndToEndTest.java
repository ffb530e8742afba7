package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.GatewayHarness.TestWorkspace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through the whole gateway: a decision made after its caller gave up is recorded as reaching
 * nobody (no approval, no allow taken as given), and a client retry with the same Idempotency-Key gets the
 * first outcome instead of a second row.
 */
class DeadlinesEndToEndTest {

    private static GatewayHttpClient.Response evaluate(TestWorkspace ws, Map<String, Object> body, String idempotencyKey) {
        return GatewayHarness.client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), body,
                Map.of("Idempotency-Key", idempotencyKey));
    }

    @Test
    void aRetryWithTheSameIdempotencyKeyGetsTheFirstOutcomeAndNoSecondRow() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String agent = "agent-" + UUID.randomUUID();
        Map<String, Object> merge = Map.of("tool", "code_host", "action", "pull_request.merge", "riskLevel", "low",
                "agentId", agent);
        var first = evaluate(ws, merge, "merge-42");
        var retry = evaluate(ws, merge, "merge-42");
        assertThat(first.status()).isEqualTo(200);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.text("auditLogId")).isEqualTo(first.text("auditLogId"));
        assertThat(retry.text("approvalRequestId")).isEqualTo(first.text("approvalRequestId")).isNotNull();
        var other = evaluate(ws, merge, "merge-43");
        assertThat(other.text("auditLogId")).isNotEqualTo(first.text("auditLogId"));

        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> rows(ws.id(), agent).size() == 2);
        assertThat(rows(ws.id(), agent)).extracting(r -> r.auditLogId())
                .containsExactlyInAnyOrder(first.text("auditLogId"), other.text("auditLogId"));
        assertThat(approvals(ws.id(), first.text("auditLogId"))).isEqualTo(1);
    }

    @Test
    void aDecisionMadeAfterTheDeadlineIsMarkedUndeliveredAndOpensNoApproval() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        EmbeddedGateway gateway = GatewayHarness.gateway();
        String agent = "agent-" + UUID.randomUUID();
        Map<String, Object> merge = Map.of("tool", "code_host", "action", "pull_request.merge", "riskLevel", "low",
                "agentId", agent);
        gateway.stopDecisionStream();
        GatewayHttpClient.Response late;
        try {
            late = evaluate(ws, merge, "late-1");
            assertThat(late.status()).isEqualTo(504);
        } finally {
            gateway.startDecisionStream();
        }
        // decided once the stream is back, seconds after the caller's 504: recorded, marked, nothing opened
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rows(ws.id(), agent).size() == 1);
        AuditRow recorded = rows(ws.id(), agent).get(0);
        assertThat(recorded.decision()).isEqualTo("require_approval");
        assertThat(recorded.undelivered()).isTrue();
        assertThat(recorded.approvalRequestId()).isNull();
        assertThat(approvals(ws.id(), recorded.auditLogId())).isZero();
        assertThat(GatewayHarness.smtp().getReceivedMessages()).noneMatch(m -> {
            try {
                return String.valueOf(m.getContent()).contains(recorded.auditLogId());
            } catch (Exception e) {
                return false;
            }
        });

        // the client retries with the same key: answered now, a delivered row beside the undelivered one
        var retry = evaluate(ws, merge, "late-1");
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.text("decision")).isEqualTo("require_approval");
        assertThat(retry.text("approvalRequestId")).isNotNull();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> rows(ws.id(), agent).size() == 2);
        assertThat(rows(ws.id(), agent)).filteredOn(AuditRow::undelivered).hasSize(1);
        // and a further retry gets that same answer
        assertThat(evaluate(ws, merge, "late-1").text("auditLogId")).isEqualTo(retry.text("auditLogId"));
    }

    record AuditRow(String auditLogId, String decision, String approvalRequestId, boolean undelivered) {}

    private static List<AuditRow> rows(String workspaceId, String agentId) throws Exception {
        try (Connection c = GatewayHarness.db();
             PreparedStatement s = c.prepareStatement("select id::text, decision, approval_request_id::text, undelivered"
                     + " from audit_log where workspace_id = ?::uuid and agent_id = ? order by occurred_at")) {
            s.setString(1, workspaceId);
            s.setString(2, agentId);
            List<AuditRow> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AuditRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4)));
                }
            }
            return rows;
        }
    }

    private static int approvals(String workspaceId, String auditLogId) throws Exception {
        try (Connection c = GatewayHarness.db();
             PreparedStatement s = c.prepareStatement(
                     "select count(*) from approval_requests where workspace_id = ?::uuid and audit_log_id = ?::uuid")) {
            s.setString(1, workspaceId);
            s.setString(2, auditLogId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
