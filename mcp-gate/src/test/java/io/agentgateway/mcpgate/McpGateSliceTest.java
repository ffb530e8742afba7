package io.agentgateway.mcpgate;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ApprovalWithdrawals;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.gatewayclient.LiveEvents;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fast tests of the gate's handlers ({@link McpGateSlice}): HTTP through {@link WebTestClient} to the module on a
 * real server, and what stands
 * at the module's boundary to the decision stream stubbed as the stream would answer (petclinic's
 * {@code OwnerControllerTests} pattern): the key checks and the connection view ({@link ConnectionAccess}), the
 * decisions ({@link ActionGate}), withdrawals and the events reader. A workspace of its own per test, connected to the
 * real upstream {@link #UPSTREAM}.
 */
@SpringJUnitConfig(McpGateSlice.class)
@TestPropertySource(properties = {"gateway.secrets.key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        "gateway.mcp.tasks.result-wait=PT3S", "gateway.mcp.tasks.read-model-wait=PT0.5S"})
public abstract class McpGateSliceTest {
    protected static final String PATH = "/functions/v1/mcp-gate/sse";
    /** One upstream for the test JVM (as the context is cached for it): it stops with the JVM. */
    protected static final McpTestUpstream UPSTREAM = McpTestUpstream.start();

    @MockitoBean
    protected ActionGate gate;
    @MockitoBean
    protected ConnectionAccess access;
    @MockitoBean
    protected ApprovalWithdrawals withdrawals;
    @MockitoBean
    protected LiveEvents events;

    @Autowired
    private McpGateSlice.Server server;

    protected WebTestClient http;
    protected final UUID workspace = UUID.randomUUID();
    protected final String apiKey = ApiKeys.generate(workspace);
    protected final String keyHash = ApiKeys.hash(apiKey);
    protected Known connected;

    @BeforeEach
    void connectTheWorkspace() {
        http = WebTestClient.bindToServer().baseUrl(server.baseUrl()).responseTimeout(Duration.ofSeconds(20)).build();
        connected = new Known(1, new ToolConnection(Tool.MCP, null, null, null, UPSTREAM.url(), McpAuthType.BEARER,
                McpTransport.HTTP, null));
        when(access.known(eq(workspace), eq(Tool.MCP))).thenReturn(connected);
        when(access.authorize(eq(workspace), anyString(), any(), eq(Scope.MCP), eq(Tool.MCP))).thenReturn(Mono.just(connected));
        when(events.of(any())).thenReturn(Flux.never());
    }

    /** The decision stream decides every action of the workspace {@code outcome}. */
    protected void decides(EvaluationOutcome outcome) {
        when(gate.decide(any())).thenReturn(Mono.just(new GateDecision(GateDecision.Kind.DECIDED, connected, outcome)));
    }

    protected static EvaluationOutcome outcome(Decision decision, String reason) {
        return new EvaluationOutcome(decision, reason, "policy-1", decision == Decision.REQUIRE_APPROVAL
                ? UUID.randomUUID().toString() : null, UUID.randomUUID().toString(), RiskLevel.HIGH, null);
    }

    /** A held call's outcome with the opened approval's times, as the decision stream answers it. */
    protected static EvaluationOutcome held(Instant createdAt) {
        return outcome(Decision.REQUIRE_APPROVAL, "needs a human").withApprovalTimes(createdAt, createdAt.plus(Duration.ofDays(1)));
    }

    /** A POST of one JSON-RPC body with the workspace's key (and {@code headers}: name, value, ...). */
    protected WebTestClient.ResponseSpec post(String body, String... headers) {
        WebTestClient.RequestBodySpec request = http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request = request.header(headers[i], headers[i + 1]);
        }
        return request.bodyValue(body).exchange();
    }

    /** The JSON error body of an HTTP refusal: {@code {ok:false, error, correlationId}}; returns its {@code error}. */
    protected static String refusal(WebTestClient.ResponseSpec response) {
        JsonNode body = IngressJson.REQUESTS.readTree(response.expectBody().returnResult().getResponseBody());
        org.assertj.core.api.Assertions.assertThat(body.get("ok").asBoolean(true)).isFalse();
        org.assertj.core.api.Assertions.assertThat(body.get("correlationId").asString("")).isNotBlank();
        return body.get("error").asString();
    }

    /** The JSON answer to one JSON-RPC body. */
    protected JsonNode rpc(String body, String... headers) {
        byte[] answer = post(body, headers).expectStatus().isOk().expectBody().returnResult().getResponseBody();
        return IngressJson.REQUESTS.readTree(answer);
    }

    protected static String request(int id, String method, ObjectNode params) {
        ObjectNode request = IngressJson.RESPONSES.createObjectNode();
        request.put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            request.set("params", params);
        }
        return request.toString();
    }

    protected static ObjectNode params() {
        return IngressJson.RESPONSES.createObjectNode();
    }

    /**
     * A copy of {@code params} with a 2026-07-28 request's {@code _meta}: its version, the client's name and
     * {@code capabilities} (null: the member left out).
     */
    protected static ObjectNode stateless(ObjectNode params, ObjectNode capabilities) {
        ObjectNode copy = params == null ? params() : params.deepCopy();
        ObjectNode meta = copy.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", "2026-07-28");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "raw-client").put("version", "1.0.0");
        if (capabilities != null) {
            meta.set("io.modelcontextprotocol/clientCapabilities", capabilities);
        }
        return copy;
    }

    /** The routing headers a 2026-07-28 client sends on Streamable HTTP: its version, the method and, unless null, the name. */
    protected static String[] routing(String method, String name) {
        return name == null ? new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
                : new String[] {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method, "Mcp-Name", name};
    }

    /** {@code tools/call} params of {@code tool} with a {@code marker} argument (its answer names it). */
    protected static ObjectNode call(String tool, String marker) {
        ObjectNode params = params().put("name", tool);
        params.putObject("arguments").put("marker", marker);
        return params;
    }
}
