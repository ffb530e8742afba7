package io.agentgateway.ingressapi.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.ingresstestsupport.TestHttp;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** No decision, no allow: every transport failure reaches the client as 503 or 504 with its correlation id. */
class FailClosedHttpTest {
    private static final String BODY = "{\"tool\":\"mcp\",\"action\":\"a.b\",\"riskLevel\":\"low\"}";

    @Test
    void nobodyAnsweringIs504() {
        RunningIngress ingress = SharedIngress.ingress();
        // a workspace the responder never answers
        String key = ApiKeys.generate(UUID.randomUUID());

        TestHttp.Response response = ingress.http.post("/functions/v1/evaluate-action").bearer(key).body(BODY).send();

        assertThat(response.status()).isEqualTo(504);
        assertThat(response.json().get("ok").booleanValue()).isFalse();
        assertThat(response.error()).isEqualTo("Timed out waiting for a decision");
        assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
    }

    @Test
    void aBrokerThatDiesAfterStartUpIs503() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(null, 0);
        RunningIngress ingress;
        try {
            // the reply timeout is longer than the producer's delivery timeout: a 503 can only come from the send. A send
            // that timed out may still have been written, so the 503 comes at the deadline (a decision made in time
            // would have been answered), not at once
            ingress = RunningIngress.start(broker.bootstrapServers(), TestDatabase.create(), Map.of(
                    "gateway.ingress.reply-timeout", "PT4S",
                    "spring.kafka.producer.properties.request.timeout.ms", "500",
                    "spring.kafka.producer.properties.delivery.timeout.ms", "1000"), true);
        } finally {
            broker.close();
        }
        try {
            TestHttp.Response response = ingress.http.post("/functions/v1/evaluate-action")
                    .bearer(ApiKeys.generate(UUID.randomUUID())).body(BODY).send();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.error()).isEqualTo("Decision service unavailable");
            assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
        } finally {
            ingress.close();
        }
    }
}
