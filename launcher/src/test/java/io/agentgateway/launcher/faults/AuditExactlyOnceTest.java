package io.agentgateway.launcher.faults;

import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue test 2: exactly one audit row per evaluation while the decision stream is stopped and
 * restarted in the middle of 2,000 evaluations: none lost, none doubled.
 */
class AuditExactlyOnceTest {

    @Test
    void oneAuditRowPerEvaluationAcrossADecisionStreamRestart() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        EmbeddedGateway gateway = GatewayHarness.gateway();
        int total = 2000;
        AtomicInteger next = new AtomicInteger();
        ConcurrentLinkedQueue<GatewayHttpClient.Response> responses = new ConcurrentLinkedQueue<>();
        ExecutorService callers = Executors.newFixedThreadPool(16);
        List<Future<?>> work = new java.util.ArrayList<>();
        for (int t = 0; t < 16; t++) {
            work.add(callers.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < total) {
                    responses.add(evaluate(ws, Map.of("tool", "chat", "action", "message.send",
                            "riskLevel", "low", "agentId", "agent-" + (i % 7), "payload", Map.of("n", i))));
                }
            }));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> next.get() >= 600);
        gateway.stopDecisionStream();
        gateway.startDecisionStream();
        for (Future<?> f : work) {
            f.get(3, TimeUnit.MINUTES);
        }
        callers.shutdown();

        List<GatewayHttpClient.Response> all = List.copyOf(responses);
        assertThat(all).hasSize(total);
        assertThat(all).extracting(GatewayHttpClient.Response::status).allMatch(s -> s == 200 || s == 503 || s == 504);
        // a 503 was refused before it entered the log; everything else was accepted and must be audited
        long accepted = all.stream().filter(r -> r.status() != 503).count();
        Set<String> answeredAuditIds = new HashSet<>();
        all.stream().filter(r -> r.status() == 200).forEach(r -> answeredAuditIds.add(r.text("auditLogId")));
        assertThat(answeredAuditIds).hasSize((int) all.stream().filter(r -> r.status() == 200).count());
        assertThat(answeredAuditIds.size()).isGreaterThan(total / 2);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(auditRows(ws.id()).size()).isEqualTo((int) accepted));
        Map<String, Integer> rows = auditRows(ws.id());
        assertThat(rows.keySet()).containsAll(answeredAuditIds);
        assertThat(rows.values()).as("rows per command").allMatch(n -> n == 1);
    }

    /** audit id -> number of rows that carry its command id (must be 1). */
    private static Map<String, Integer> auditRows(String workspaceId) throws Exception {
        Map<String, Integer> rows = new HashMap<>();
        try (var c = GatewayHarness.db(); var s = c.prepareStatement("""
                select a.id::text, (select count(*) from audit_log b where b.command_id = a.command_id)
                from audit_log a where a.workspace_id = ?::uuid and a.kind = 'action_evaluated'""")) {
            s.setString(1, workspaceId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return rows;
    }
}
