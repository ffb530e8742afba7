package io.agentgateway.ingressapi.httpedge;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The command's deadline and the Idempotency-Key: a retry with the same key is the same command (the decision
 * stream's dedupe answers it with the first outcome); another key, another API key or no key is not.
 */
class IdempotencyKeyHttpTest {
    private static final String BODY = "{\"tool\":\"docs\",\"action\":\"page.read\",\"riskLevel\":\"low\"}";

    @Test
    void retriesWithTheSameKeyAreOneCommandAndCarryTheDeadline() {
        RunningIngress ingress = SharedIngress.ingress();
        DecisionResponder responder = SharedIngress.responder();
        UUID workspace = UUID.randomUUID();
        responder.answer(workspace.toString(), envelope -> DecisionResponder.evaluation(envelope, new EvaluationOutcome(
                Decision.ALLOW, "allowed", null, null, UUID.randomUUID().toString(), RiskLevel.LOW, RiskClassification.CALLER_SUPPLIED)));
        String key = ApiKeys.generate(workspace);
        String otherKey = ApiKeys.generate(workspace);

        post(ingress, key, "retry-1");
        post(ingress, key, "retry-1");
        post(ingress, key, "retry-2");
        post(ingress, otherKey, "retry-1");
        post(ingress, key, null);

        List<CommandEnvelope> sent = responder.received(workspace.toString());
        assertThat(sent).hasSize(5);
        assertThat(sent.get(1).commandId()).as("the retry").isEqualTo(sent.get(0).commandId());
        assertThat(sent.subList(2, 5)).extracting(CommandEnvelope::commandId).doesNotContain(sent.get(0).commandId())
                .doesNotHaveDuplicates();
        // the caller's deadline: the reply timeout from acceptance (PT3S in these tests)
        assertThat(sent).allSatisfy(e -> assertThat(Duration.between(e.acceptedAt(), e.deadline())).isEqualTo(Duration.ofSeconds(3)));
    }

    @Test
    void aMalformedKeyIsRefused() {
        RunningIngress ingress = SharedIngress.ingress();
        String key = ApiKeys.generate(UUID.randomUUID());
        for (String bad : List.of("has space", "x".repeat(256))) {
            TestHttp.Response response = ingress.http.post("/functions/v1/evaluate-action").bearer(key)
                    .header(IdempotencyKeys.HEADER, bad).body(BODY).send();
            assertThat(response.status()).as("'%s'", bad).isEqualTo(400);
            assertThat(response.error()).isEqualTo(IdempotencyKeys.INVALID);
        }
    }

    private static void post(RunningIngress ingress, String key, String idempotencyKey) {
        var request = ingress.http.post("/functions/v1/evaluate-action").bearer(key).body(BODY);
        if (idempotencyKey != null) {
            request = request.header(IdempotencyKeys.HEADER, idempotencyKey);
        }
        assertThat(request.send().status()).isEqualTo(200);
    }
}
