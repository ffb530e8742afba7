package io.agentgateway.launcher.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.AuditRow;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.IngressReplica;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through the whole gateway: a decision made after its caller gave up is recorded as reaching
 * nobody (no approval, no allow taken as given), and a client retry with the same Idempotency-Key gets the
 * first outcome instead of a second row. A decision made in time whose answer reached nobody all the same (its
 * reply came after the caller's 504) is marked too, once the ingress reports the 504, and so is one whose caller hung up
 * before its answer. (An ingress killed before it answered: {@code IngressCrashEndToEndTest}.)
 */
class DeadlinesEndToEndTest {
    /**
     * An ingress (reply partition 1) with a short reply timeout whose reply consumer {@link HeldReplies} can hold up:
     * replies come through Kafka to it (in-process replies go only to the gateway's own ingress), so a reply the
     * stream wrote in time can reach it after its 504, as after a failover of the replies partition's leader.
     */
    private static final IngressReplica SLOW_REPLIES = new IngressReplica(1, Map.of(
            "gateway.ingress.reply-timeout", "PT2S",
            "spring.kafka.consumer.properties.interceptor.classes", HeldReplies.class.getName()));

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

    @Test
    void aDecisionMadeInTimeWhoseReplyArrivesAfterThe504IsMarkedUndeliveredAndItsApprovalEnded() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String agent = "agent-" + UUID.randomUUID();
        Map<String, Object> merge = Map.of("tool", "code_host", "action", "pull_request.merge", "riskLevel", "low",
                "agentId", agent);
        GatewayHttpClient.Response answered;
        HeldReplies.hold();
        try {
            answered = SLOW_REPLIES.client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), merge,
                    Map.of("Idempotency-Key", "slow-1"));
            // decided in time (its reply reached the replica's consumer) and held there past the replica's timeout
            assertThat(HeldReplies.heldBatches()).as("the reply was written and reached the ingress").isPositive();
        } finally {
            HeldReplies.release();
        }
        assertThat(answered.status()).isEqualTo(504);

        // the decision was recorded as delivered when it was made; the ingress's report marks it and ends its approval
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rows(ws.id(), agent).size() == 1
                && rows(ws.id(), agent).get(0).undelivered());
        AuditRow recorded = rows(ws.id(), agent).get(0);
        assertThat(recorded.decision()).isEqualTo("require_approval");
        assertThat(recorded.approvalRequestId()).as("it did open one, in time").isNotNull();
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> approvalStatus(recorded.approvalRequestId()), "expired"::equals);
        var review = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/"
                + recorded.approvalRequestId() + "/approve", ws.ownerJwt(), Map.of("reason", "too late"));
        assertThat(review.status()).as("no longer approvable: %s", review.rawBody()).isIn(404, 409);

        // the client retries with the same key: decided afresh and answered, a delivered row beside the marked one
        var retry = SLOW_REPLIES.client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), merge,
                Map.of("Idempotency-Key", "slow-1"));
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.text("auditLogId")).isNotEqualTo(recorded.auditLogId());
        assertThat(retry.text("approvalRequestId")).isNotNull().isNotEqualTo(recorded.approvalRequestId());
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> rows(ws.id(), agent).size() == 2);
        assertThat(rows(ws.id(), agent)).filteredOn(AuditRow::undelivered).extracting(AuditRow::auditLogId)
                .containsExactly(recorded.auditLogId());
    }

    @Test
    void aCallerThatHangsUpBeforeItsAnswerLeavesItsDecisionMarkedUndelivered() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String agent = "agent-" + UUID.randomUUID();
        String body = "{\"tool\":\"docs\",\"action\":\"page.read\",\"riskLevel\":\"low\",\"agentId\":\"" + agent + "\"}";
        URI replica = URI.create(SLOW_REPLIES.baseUrl());
        HeldReplies.hold();
        try (Socket caller = new Socket(replica.getHost(), replica.getPort())) {
            caller.getOutputStream().write(("POST /functions/v1/evaluate-action HTTP/1.1\r\nHost: gateway\r\n"
                    + "Authorization: Bearer " + ws.apiKey() + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            caller.getOutputStream().flush();
            // decided in time, its reply held at the replica's consumer; the agent gives up and closes the connection
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> HeldReplies.heldBatches() > 0);
            caller.close();
            // the replica noticed before the reply comes (a reply handed to the handler first is the documented window:
            // written to a closed connection, unmarked), well before its 2 s reply timeout would have ended the wait
            // with a 504 and a report of its own
            Awaitility.await().atMost(Duration.ofMillis(1500)).until(() -> SLOW_REPLIES.commandGateway().pendingCount() == 0);
        } finally {
            HeldReplies.release();
        }

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rows(ws.id(), agent).size() == 1
                && rows(ws.id(), agent).get(0).undelivered());
        assertThat(rows(ws.id(), agent).get(0).decision()).isEqualTo("allow");
    }

    @AfterAll
    static void closeReplica() {
        SLOW_REPLIES.close();
    }

    private static String approvalStatus(String approvalId) throws Exception {
        try (Connection c = GatewayHarness.db();
             PreparedStatement s = c.prepareStatement("select status from approval_requests where id = ?::uuid")) {
            s.setString(1, approvalId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static List<AuditRow> rows(String workspaceId, String agentId) throws Exception {
        return GatewayHarness.auditRows(workspaceId, agentId);
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
