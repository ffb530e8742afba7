package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.sun.net.httpserver.HttpServer;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.actiongate.callview.ConditionInputProperties;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.edge.ProxyRequestProperties;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.EdgeTestServer;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.httpedge.web.PublicUrlProperties;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.core.publisher.Mono;

/**
 * The proxy's handler alone: bound to its route with the edge's correlation ids and the proxy's error dialect, its
 * decision through the gate with the workspace's connection ({@link ProxyTargets}) stubbed with what the stream would
 * answer, the facts lookups ({@link ConditionLookups}) too; the upstream a real HTTP server in process. What the handler
 * owns: the one reading of the request, its classification into the evaluation and the sealed held call, and the three
 * answers (forwarded, blocked, held) in the tool's dialect. End to end: the launcher's {@code ProxyEndToEndTest}.
 */
class GatewayProxyHandlerTest {
    private static final String SECRETS_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    private static final String ISSUES = GatewayProxyHandler.PREFIX + "code_host/repos/acme/api/issues";
    private static final String AUDIT_ID = "11111111-1111-1111-1111-111111111111";

    private final ProxyTargets targets = mock(ProxyTargets.class);
    private final ConditionLookups lookups = mock(ConditionLookups.class);
    private final List<String> upstreamReceived = new CopyOnWriteArrayList<>();
    private final AtomicReference<EvaluateAction> evaluated = new AtomicReference<>();
    private final String key = ApiKeys.generate(UUID.randomUUID());
    private HttpServer upstream;
    private ReactorResourceFactory resources;
    private EdgeTestServer server;
    private WebTestClient client;

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            upstreamReceived.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = "{\"number\":7}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(201, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        upstream.start();
        resources = new ReactorResourceFactory();
        resources.afterPropertiesSet();
        ProxyProperties properties = new ProxyProperties(Duration.ofSeconds(5), Duration.ofSeconds(2), null, 403, null);
        PublicBaseUrl gatewayBase = new PublicBaseUrl(new PublicUrlProperties("https://gateway.example"));
        GatewayProxyHandler handler = new GatewayProxyHandler(targets, new HeldCallSeals(new SecretsProperties(SECRETS_KEY)),
                new UpstreamForwarder(resources, properties, gatewayBase, EgressClients.of(List.of("127.0.0.0/8"), List.of(), "test-hop")),
                properties, new ProxyRequestProperties(65536), gatewayBase, CallViews.bounded(4096), lookups,
                new ConditionArguments(new ConditionInputProperties(65536, Duration.ofSeconds(2))));
        server = EdgeTestServer.serve(RouterFunctions.route(RequestPredicates.path(GatewayProxyHandler.ROUTE), handler::proxy),
                new ProxyErrorDialect());
        client = server.client();
        when(lookups.lookUp(any(), any(), any(), any(), any(), any(), any())).thenReturn(Mono.just(ConditionLookups.Found.NOTHING));
    }

    @AfterEach
    void stop() {
        server.close();
        upstream.stop(0);
        resources.destroy();
    }

    /** The stream decides {@code outcome} with the workspace's connection to the in-process upstream. */
    @SuppressWarnings("unchecked")
    private void decides(EvaluationOutcome outcome) {
        ProxyTarget target = new ProxyTarget(new UpstreamTarget(URI.create("http://127.0.0.1:" + upstream.getAddress().getPort()),
                Map.of("Authorization", "token ghp_theConnectionsToken")), List.of());
        when(targets.decide(any(), eq(Tool.CODE_HOST), any(), any(), any(), any())).thenAnswer(call -> {
            evaluated.set(((Function<ProxyTarget, EvaluateAction>) call.getArgument(5)).apply(target));
            return Mono.just(new ProxyTargets.Decided(target, new GateDecision(GateDecision.Kind.DECIDED, null, outcome)));
        });
    }

    private static EvaluationOutcome outcome(Decision decision, String approvalId) {
        return new EvaluationOutcome(decision, "workspace default for medium risk", null, approvalId, AUDIT_ID,
                RiskLevel.MEDIUM, RiskClassification.SERVER_CLASSIFIED);
    }

    private WebTestClient.ResponseSpec createIssue() {
        return client.post().uri(ISSUES).header("Authorization", "token " + key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"title\":\"flaky test\"}").exchange();
    }

    @Test
    void anAllowedCallGoesToTheUpstreamWithTheConnectionsCredentialNeverTheKey() {
        decides(outcome(Decision.ALLOW, null));

        createIssue().expectStatus().isCreated()
                .expectHeader().valueEquals(UpstreamForwarder.AUDIT_HEADER, AUDIT_ID)
                .expectBody().json("{\"number\":7}");

        assertThat(upstreamReceived).containsExactly("POST /repos/acme/api/issues token ghp_theConnectionsToken {\"title\":\"flaky test\"}");
    }

    @Test
    void theEvaluationIsTheRequestAsTheTablesClassifyItWithTheCallSealed() {
        decides(outcome(Decision.ALLOW, null));

        createIssue().expectStatus().isCreated();

        EvaluateAction action = evaluated.get();
        assertThat(action.tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(action.action()).isEqualTo("issues.create");
        assertThat(action.riskLevel()).isEqualTo(RiskLevel.MEDIUM);
        assertThat(action.source()).isEqualTo(ActionSource.PROXY);
        assertThat(action.requiredScope()).isEqualTo(Scope.PROXY);
        assertThat(action.heldCall()).as("the call a reviewer would approve, sealed").isNotNull();
        assertThat(action.heldCall().sealed()).doesNotContain("flaky test");
        assertThat(action.payload().get("method").asString()).isEqualTo("POST");
        assertThat(action.payload().toString()).doesNotContain(key);
    }

    @Test
    void aBlockedCallIs403InTheCodeHostsDialectAndNothingIsSent() {
        decides(outcome(Decision.BLOCK, null));

        createIssue().expectStatus().isForbidden()
                .expectHeader().valueEquals(UpstreamForwarder.AUDIT_HEADER, AUDIT_ID)
                .expectBody()
                .jsonPath("$.message").isEqualTo("Blocked by the gateway: workspace default for medium risk")
                .jsonPath("$.ok").isEqualTo(false)
                .jsonPath("$.decision").isEqualTo("block");
        assertThat(upstreamReceived).isEmpty();
    }

    @Test
    void aHeldCallAnswersTheHeldStatusWithWhereItsOutcomeWillBe() {
        decides(outcome(Decision.REQUIRE_APPROVAL, "33333333-3333-3333-3333-333333333333"));

        createIssue().expectStatus().isForbidden().expectBody()
                .jsonPath("$.decision").isEqualTo("require_approval")
                .jsonPath("$.approvalRequestId").isEqualTo("33333333-3333-3333-3333-333333333333")
                .jsonPath("$.statusUrl").isEqualTo("/functions/v1/mcp-gate/status/33333333-3333-3333-3333-333333333333")
                .jsonPath("$.message").value(message -> assertThat((String) message)
                        .endsWith("https://gateway.example/functions/v1/mcp-gate/status/33333333-3333-3333-3333-333333333333"));
        assertThat(upstreamReceived).isEmpty();
    }

    @Test
    void aRequestTheProxyCannotReadIsRefusedInTheToolsDialectBeforeAnythingIsDecided() {
        client.post().uri(GatewayProxyHandler.PREFIX + "no_such_tool/x").header("Authorization", "token " + key).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.error").isEqualTo(GatewayProxyHandler.TOOL_MESSAGE);
        // the code host's SDK sends "token" or "Bearer", never the bare key
        client.post().uri(ISSUES).header("Authorization", key).exchange()
                .expectStatus().isUnauthorized().expectBody()
                .jsonPath("$.message").isEqualTo("Invalid or expired API key").jsonPath("$.ok").isEqualTo(false);
        client.post().uri(ISSUES).header("Authorization", "token " + key).header("X-HTTP-Method-Override", "DELETE").exchange()
                .expectStatus().isBadRequest();
        client.get().uri(GatewayProxyHandler.PREFIX + "code_host/repos/acme/%2e%2e/admin").header("Authorization", "token " + key)
                .exchange().expectStatus().isBadRequest();

        verifyNoInteractions(targets);
        assertThat(upstreamReceived).isEmpty();
    }
}
