package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Issue test 1: per-workspace order through the log, with 32 callers racing the switch. */
class KillSwitchOrderingTest {

    private record Observation(long sentAtNanos, int status, String decision) {}

    @Test
    void everyEvaluationAcceptedAfterEnableAnsweredIsBlocked() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        ConcurrentLinkedQueue<Observation> observations = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch warmedUp = new CountDownLatch(32);
        ExecutorService callers = Executors.newFixedThreadPool(32);
        for (int i = 0; i < 32; i++) {
            callers.submit(() -> {
                boolean first = true;
                while (running.get()) {
                    long sent = System.nanoTime();
                    var r = evaluate(ws, action("chat", "message.send", "low"));
                    observations.add(new Observation(sent, r.status(), r.text("decision")));
                    if (first) {
                        warmedUp.countDown();
                        first = false;
                    }
                }
                return null;
            });
        }
        assertThat(warmedUp.await(30, TimeUnit.SECONDS)).isTrue();

        var enabled = killSwitch(ws, "enable", null);
        long enableAnsweredAt = System.nanoTime();
        assertThat(enabled.status()).isEqualTo(200);
        assertThat(enabled.body().get("ok").asBoolean()).isTrue();

        // keep racing until plenty of calls were sent after the switch answered
        await().atMost(Duration.ofSeconds(60)).until(() ->
                observations.stream().filter(o -> o.sentAtNanos() > enableAnsweredAt).count() >= 320);
        running.set(false);
        callers.shutdown();
        assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        List<Observation> after = observations.stream().filter(o -> o.sentAtNanos() > enableAnsweredAt).toList();
        List<Observation> before = observations.stream().filter(o -> o.sentAtNanos() <= enableAnsweredAt).toList();
        assertThat(after).as("evaluations accepted after the switch answered").hasSizeGreaterThan(32);
        assertThat(after).allSatisfy(o -> {
            assertThat(o.status()).isEqualTo(200);
            assertThat(o.decision()).isEqualTo("block");
        });
        assertThat(before).extracting(Observation::decision).contains("allow");

        // disable restores the policies: a policy that holds chat messages applies again
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "hold chat", "priority", 10, "enabled", true, "decision", "require_approval",
                "match", Map.of("tools", List.of("chat"))));
        assertThat(policy.status()).isIn(200, 201);
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("block");
        assertThat(killSwitch(ws, "disable", null).status()).isEqualTo(200);
        var restored = evaluate(ws, action("chat", "message.send", "low"));
        assertThat(restored.text("decision")).isEqualTo("require_approval");
        assertThat(restored.text("matchedPolicyId")).isEqualTo(policy.text("policyId"));
        assertThat(evaluate(ws, action("docs", "page.read", "low")).text("decision")).isEqualTo("allow");
    }
}
