package io.agentgateway.launcher.faults;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue test 3: with the decision stream stopped, callers get 503/504 within the timeout, never allow. */
class FailClosedTest {

    @Test
    void aStoppedDecisionStreamNeverYieldsAnAllow() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        EmbeddedGateway gateway = GatewayHarness.gateway();
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow");

        gateway.stopDecisionStream();
        try {
            long start = System.nanoTime();
            var r = evaluate(ws, action("chat", "message.send", "low"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(r.status()).isIn(503, 504);
            assertThat(r.body().get("ok").asBoolean()).isFalse();
            assertThat(r.text("error")).isNotBlank();
            assertThat(r.text("correlationId")).isNotBlank();
            assertThat(r.text("decision")).isNull();
            assertThat(took).isLessThan(GatewayHarness.REPLY_TIMEOUT.plusSeconds(2));

            var ks = killSwitch(ws, "enable", null);
            assertThat(ks.status()).isIn(503, 504);
            assertThat(ks.body().get("ok").asBoolean()).isFalse();
        } finally {
            gateway.startDecisionStream();
        }
        // the kill switch accepted into the log while the stream was down is applied in order
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("block");
    }
}
