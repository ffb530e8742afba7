package io.agentgateway.agentapi.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.EdgeTestServer;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/**
 * The evaluate-action handler alone, without a broker or the ingress: bound to its route with the edge's correlation
 * ids and error body, its one service, the {@link ActionGate}, stubbed with what the decision stream would answer.
 * What the handler owns: the key's form before the body, the body's checks, the answer's fields, the timer. The way
 * through the log is ingress-api's {@code EvaluateActionTest}.
 */
class EvaluateActionHandlerTest {
    private static final String BODY = """
            {"tool":"mcp","action":"files.delete","riskLevel":"high","agentId":"agent-7"}""";
    private static final String AUDIT_ID = "11111111-1111-1111-1111-111111111111";

    private final ActionGate gate = mock(ActionGate.class);
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final String key = ApiKeys.generate(UUID.randomUUID());
    private final EdgeTestServer server = EdgeTestServer.serve(MethodRoutes.path(EvaluateActionHandler.PATH)
            .post(new EvaluateActionHandler(gate,
                    new JsonBodyReader(new IngressProperties(0, Duration.ofSeconds(3), 4096, Duration.ofSeconds(10), null)),
                    new EvaluateActionMetrics(meters), CallViews.bounded(4096))::evaluate)
            .build());
    private final WebTestClient client = server.client();

    @AfterEach
    void stop() {
        server.close();
    }

    private void decides(EvaluationOutcome outcome) {
        when(gate.decide(any())).thenReturn(Mono.just(new GateDecision(GateDecision.Kind.DECIDED, null, outcome)));
    }

    private WebTestClient.ResponseSpec evaluate(String body) {
        return client.post().uri(EvaluateActionHandler.PATH).header("Authorization", "Bearer " + key)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void anAllowIsAnsweredWithEveryFieldNullsIncluded() {
        decides(new EvaluationOutcome(Decision.ALLOW, "workspace default for medium risk", null, null, AUDIT_ID,
                RiskLevel.HIGH, RiskClassification.CALLER_SUPPLIED));
        String correlationId = UUID.randomUUID().toString();

        client.post().uri(EvaluateActionHandler.PATH).header("Authorization", "Bearer " + key)
                .header(CorrelationIds.HEADER, correlationId).contentType(MediaType.APPLICATION_JSON).bodyValue(BODY)
                .exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals(CorrelationIds.HEADER, correlationId)
                .expectBody().json("""
                        {"ok":true,"decision":"allow","reason":"workspace default for medium risk","matchedPolicyId":null,
                         "approvalRequestId":null,"auditLogId":"11111111-1111-1111-1111-111111111111",
                         "correlationId":"%s","risk_classification":"caller_supplied","riskLevel":"high"}"""
                        .formatted(correlationId), true);
    }

    @Test
    void aHeldActionNamesItsApprovalAndPolicy() {
        decides(new EvaluationOutcome(Decision.REQUIRE_APPROVAL, "policy", "22222222-2222-2222-2222-222222222222",
                "33333333-3333-3333-3333-333333333333", AUDIT_ID, RiskLevel.HIGH, RiskClassification.SERVER_CLASSIFIED));

        evaluate(BODY).expectStatus().isOk().expectBody()
                .jsonPath("$.decision").isEqualTo("require_approval")
                .jsonPath("$.matchedPolicyId").isEqualTo("22222222-2222-2222-2222-222222222222")
                .jsonPath("$.approvalRequestId").isEqualTo("33333333-3333-3333-3333-333333333333")
                .jsonPath("$.risk_classification").isEqualTo("server_classified");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Basic dXNlcjpwdw==", "Bearer not-a-key", "Bearer agk_short"})
    void withoutAWellFormedKeyIt401sBeforeReadingTheBodyAndDecidesNothing(String authorization) {
        WebTestClient.RequestBodySpec request = client.post().uri(EvaluateActionHandler.PATH);
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }

        request.contentType(MediaType.APPLICATION_JSON).bodyValue("[1,2]").exchange()
                .expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo("Invalid or expired API key");
        verify(gate, never()).decide(any());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            [1,2]                                                             | Request body must be a JSON object
            {"tool":"github","action":"a.b","riskLevel":"low"}                | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"tool":"mcp","action":"a.b","riskLevel":"HIGH"}                  | riskLevel must be one of: low, medium, high, critical
            {"tool":"mcp","riskLevel":"low","action":"   "}                   | action must be a non-empty string
            {"tool":"mcp","riskLevel":"low","action":"a.b","agentId":5}       | agentId must be a string
            {"tool":"mcp","riskLevel":"low","action":"a.b","payload":[1]}     | payload must be an object
            """)
    void aBadBodyIs400WithItsTextAndDecidesNothing(String body, String error) {
        evaluate(body).expectStatus().isBadRequest()
                .expectBody().jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo(error);
        verify(gate, never()).decide(any());
    }

    @Test
    void aBodyOverTheLimitIs413AndAnotherMediaTypeIs415() {
        evaluate("{\"tool\":\"mcp\",\"action\":\"a.b\",\"riskLevel\":\"low\",\"payload\":{\"x\":\"" + "y".repeat(5000) + "\"}}")
                .expectStatus().isEqualTo(413).expectBody().jsonPath("$.error").isEqualTo("Request body too large");
        client.post().uri(EvaluateActionHandler.PATH).header("Authorization", "Bearer " + key)
                .contentType(MediaType.TEXT_PLAIN).bodyValue(BODY).exchange()
                .expectStatus().isEqualTo(415).expectBody().jsonPath("$.ok").isEqualTo(false);
        verify(gate, never()).decide(any());
    }

    @Test
    void aMalformedIdempotencyKeyIs400() {
        client.post().uri(EvaluateActionHandler.PATH).header("Authorization", "Bearer " + key)
                .header(IdempotencyKeys.HEADER, "has space").contentType(MediaType.APPLICATION_JSON).bodyValue(BODY).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo(IdempotencyKeys.INVALID);
        verify(gate, never()).decide(any());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(ApiException.unauthorized("Invalid or expired API key"), 401, "Invalid or expired API key", "401"),
                Arguments.of(ApiException.forbidden("This key is bound to agent agent-1"), 403, "This key is bound to agent agent-1", "403"),
                Arguments.of(new DecisionTimeoutException("c-1", Duration.ofSeconds(3)), 504, "Timed out waiting for a decision", "timeout"),
                Arguments.of(new DecisionServiceUnavailableException("broker unreachable"), 503, "Decision service unavailable",
                        "unavailable"));
    }

    /** No decision, no allow: what the gate fails with is the answer, and the timer counts it by its outcome. */
    @ParameterizedTest
    @MethodSource("refusals")
    void whatTheGateFailsWithIsTheAnswerAndIsTimed(RuntimeException failure, int status, String error, String outcome) {
        when(gate.decide(any())).thenReturn(Mono.error(failure));

        evaluate(BODY).expectStatus().isEqualTo(status).expectBody()
                .jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo(error)
                .jsonPath("$.correlationId").exists();
        assertThat(timed(outcome)).isEqualTo(1);
    }

    @Test
    void everyDecisionIsTimedUnderItsName() {
        decides(new EvaluationOutcome(Decision.BLOCK, "kill switch", null, null, AUDIT_ID, RiskLevel.HIGH,
                RiskClassification.CALLER_SUPPLIED));

        evaluate(BODY).expectStatus().isOk();
        evaluate("{}").expectStatus().isBadRequest();

        assertThat(timed("block")).isEqualTo(1);
        assertThat(timed("400")).isEqualTo(1);
        assertThat(timed("allow")).isZero();
    }

    private long timed(String outcome) {
        Timer timer = meters.find(EvaluateActionMetrics.TIMER).tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }
}
