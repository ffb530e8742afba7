package io.agentgateway.launcher.observability;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.launcher.support.ProxyTestSupport;
import io.agentgateway.launcher.support.RecordingUpstream;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One trace per request, through the running gateway with every module traced: a caller's W3C {@code traceparent} is
 * continued by the ingress's server span, and the decision stream's, the projector's, the notifier's and the upstream
 * call's spans are its descendants, through the trace context in the headers of every record. A held MCP call runs
 * in the trace of the review that approved it, its execution linked to the held request's trace. No attribute of any
 * exported span carries a secret, a key, a token or an argument value.
 */
class TracingEndToEndTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static McpUpstreamServer mcpUpstream;
    private static RecordingUpstream toolUpstream;

    @BeforeAll
    static void start() {
        GatewayHarness.gateway();
        mcpUpstream = McpUpstreamServer.start();
        toolUpstream = RecordingUpstream.start();
    }

    @AfterAll
    static void stop() {
        mcpUpstream.close();
        toolUpstream.close();
    }

    /** A caller's span: a fresh trace id and span id, sampled. */
    record Caller(String traceId, String spanId) {
        static Caller random() {
            byte[] trace = new byte[16];
            byte[] span = new byte[8];
            RANDOM.nextBytes(trace);
            RANDOM.nextBytes(span);
            return new Caller(HexFormat.of().formatHex(trace), HexFormat.of().formatHex(span));
        }

        String traceparent() {
            return "00-" + traceId + "-" + spanId + "-01";
        }
    }

    @Test
    void anEvaluationIsOneTraceFromTheCallersSpanThroughTheDecisionToTheAuditRow() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Caller caller = Caller.random();
        String argument = "argument-" + UUID.randomUUID();

        HttpResponse<String> answer = send("POST", "/functions/v1/evaluate-action", ws.apiKey(), caller, """
                {"tool":"chat","action":"message.send","riskLevel":"low","agentId":"agent-1","payload":{"text":"%s"}}
                """.formatted(argument));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode decided = GatewayJson.MAPPER.readTree(answer.body());

        List<SpanData> trace = awaitTrace(caller, names -> names.containsAll(Set.of(
                "POST /functions/v1/evaluate-action", "send EvaluateAction", "decide EvaluateAction", "project ActionEvaluated")));
        SpanData server = only(trace, "POST /functions/v1/evaluate-action");
        assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(server.getParentSpanId()).as("continues the caller's span").isEqualTo(caller.spanId());
        assertDescendantsOf(trace, server);
        assertThat(parentOf(trace, only(trace, "decide EvaluateAction")).getName()).isEqualTo("send EvaluateAction");
        assertThat(parentOf(trace, only(trace, "project ActionEvaluated")).getName()).isEqualTo("decide EvaluateAction");

        String auditLogId = decided.get("auditLogId").asString();
        String correlationId = auditCorrelationId(auditLogId);
        for (String name : List.of("POST /functions/v1/evaluate-action", "decide EvaluateAction", "project ActionEvaluated")) {
            var attributes = only(trace, name).getAttributes();
            assertThat(attributes.get(GatewayAttributes.WORKSPACE)).as(name).isEqualTo(ws.id());
            assertThat(attributes.get(GatewayAttributes.TOOL)).as(name).isEqualTo("chat");
            assertThat(attributes.get(GatewayAttributes.ACTION)).as(name).isEqualTo("message.send");
            assertThat(attributes.get(GatewayAttributes.RISK)).as(name).isEqualTo("low");
            assertThat(attributes.get(GatewayAttributes.DECISION)).as(name).isEqualTo("allow");
            assertThat(attributes.get(GatewayAttributes.CORRELATION_ID)).as("the audit row's correlation id").isEqualTo(correlationId);
        }
        assertThat(server.getAttributes().get(GatewayAttributes.HTTP_STATUS)).isEqualTo(200L);
        assertThat(server.getAttributes().get(GatewayAttributes.AUDIT_ID)).isEqualTo(auditLogId);
        assertNoSecretIn(ws, argument);
    }

    @Test
    void aProxiedCallsUpstreamSpanIsAChildOfItsRequest() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String toolToken = ProxyTestSupport.token();
        String base = "/traced-" + UUID.randomUUID();
        ProxyTestSupport.connect(ws, "code_host", Map.of("config", Map.of("access_token", toolToken),
                "base_url", toolUpstream.baseUrl() + base));
        Caller caller = Caller.random();
        String queryValue = "query-" + UUID.randomUUID();

        HttpResponse<String> answer = send("GET", "/functions/v1/gateway-proxy/code_host/repos/acme/api/issues?state="
                + queryValue, ws.apiKey(), caller, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);

        List<SpanData> trace = awaitTrace(caller, names -> names.containsAll(Set.of(
                "GET /functions/v1/gateway-proxy/**", "send EvaluateAction", "decide EvaluateAction", "project ActionEvaluated",
                "proxy GET")));
        SpanData server = only(trace, "GET /functions/v1/gateway-proxy/**");
        assertThat(server.getParentSpanId()).isEqualTo(caller.spanId());
        assertDescendantsOf(trace, server);
        SpanData upstream = only(trace, "proxy GET");
        assertThat(upstream.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(upstream.getParentSpanId()).as("the upstream call is made by the request").isEqualTo(server.getSpanId());
        assertThat(upstream.getAttributes().get(GatewayAttributes.HTTP_STATUS)).isEqualTo(200L);
        assertThat(upstream.getAttributes().get(GatewayAttributes.SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        // the gateway's own trace context goes upstream only when gateway.tracing.propagate-upstream says so: the
        // upstream sees what the agent sent (the proxy passes the agent's headers), never the gateway's client span
        RecordingUpstream.Request received = toolUpstream.requestsTo(base).get(0);
        assertThat(received.headers().getOrDefault("Traceparent", List.of()))
                .noneMatch(value -> value.contains(upstream.getSpanId()));
        assertNoSecretIn(ws, toolToken, queryValue);
    }

    @Test
    void aHeldMcpCallRunsInTheReviewsTraceLinkedToTheHeldRequest() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String upstreamToken = "upstream-token-" + UUID.randomUUID();
        McpGateClients.connect(ws, mcpUpstream.streamableUrl(), "http", "bearer", upstreamToken);
        String argument = "argument-" + UUID.randomUUID();
        Caller agent = Caller.random();

        // delete_repo is high risk: held for approval under the built-in defaults
        HttpResponse<String> held = send("POST", McpGateClients.GATE, ws.apiKey(), agent, """
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_repo","arguments":{"marker":"%s"}}}
                """.formatted(argument));
        JsonNode service = GatewayJson.MAPPER.readTree(held.body()).at("/result/_meta/service");
        assertThat(service.path("status").asString("")).as(held.body()).isEqualTo("require_approval");
        String approvalId = service.get("approvalRequestId").asString();

        // the approval's notification too: the notifier delivers it to the owner by email (GreenMail)
        List<SpanData> heldTrace = awaitTrace(agent, names -> names.containsAll(Set.of("POST " + McpGateClients.GATE,
                "send EvaluateAction", "decide EvaluateAction", "project ApprovalRequested", "project ActionEvaluated",
                "notify approval_requested", "deliver email")));
        SpanData heldRequest = only(heldTrace, "POST " + McpGateClients.GATE);
        assertThat(heldRequest.getParentSpanId()).isEqualTo(agent.spanId());
        assertDescendantsOf(heldTrace, heldRequest);
        // one decision held it (a connection version the stream no longer has would be decided once more: "stale")
        assertThat(heldTrace).filteredOn(span -> span.getName().equals("decide EvaluateAction"))
                .anySatisfy(decide -> assertThat(decide.getAttributes().get(GatewayAttributes.DECISION)).isEqualTo("require_approval"));
        assertThat(heldRequest.getAttributes().get(GatewayAttributes.APPROVAL_ID)).isEqualTo(approvalId);
        assertThat(parentOf(heldTrace, only(heldTrace, "notify approval_requested")).getName()).isEqualTo("decide EvaluateAction");
        assertThat(parentOf(heldTrace, only(heldTrace, "deliver email")).getName()).isEqualTo("notify approval_requested");
        assertThat(mcpUpstream.callsOf("delete_repo", argument)).as("held, not sent").isEmpty();

        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
        Caller reviewer = Caller.random();
        HttpResponse<String> approved = send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                ws.ownerJwt(), reviewer, "{\"reason\":\"go\"}");
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> mcpUpstream.callsOf("delete_repo", argument).size() == 1);

        List<SpanData> reviewTrace = awaitTrace(reviewer, names -> names.containsAll(Set.of(
                "POST /admin/v1/workspaces/{workspaceId}/approvals/{approvalId}/approve", "decide ReviewApproval",
                "project ApprovalReviewed", "execute approved call", "send ClaimApprovedCall", "decide ClaimApprovedCall",
                "mcp tools/call", "send RecordCallExecution", "decide RecordCallExecution", "project ApprovedCallExecuted")));
        SpanData review = only(reviewTrace, "POST /admin/v1/workspaces/{workspaceId}/approvals/{approvalId}/approve");
        assertThat(review.getParentSpanId()).isEqualTo(reviewer.spanId());
        assertDescendantsOf(reviewTrace, review);
        SpanData execution = only(reviewTrace, "execute approved call");
        assertThat(parentOf(reviewTrace, execution).getName()).as("run because the review approved it")
                .isEqualTo("decide ReviewApproval");
        assertThat(execution.getLinks()).extracting(LinkData::getSpanContext)
                .anySatisfy(linked -> assertThat(linked.getTraceId()).as("linked to the request that was held")
                        .isEqualTo(agent.traceId()));
        assertThat(execution.getAttributes().get(GatewayAttributes.APPROVAL_ID)).isEqualTo(approvalId);
        SpanData upstreamCall = only(reviewTrace, "mcp tools/call");
        assertThat(upstreamCall.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(isDescendant(reviewTrace, upstreamCall, execution)).as("the held call is run by the execution").isTrue();
        assertThat(parentOf(reviewTrace, only(reviewTrace, "project ApprovedCallExecuted")).getName())
                .isEqualTo("decide RecordCallExecution");
        assertNoSecretIn(ws, upstreamToken, argument);
    }

    private static HttpResponse<String> send(String method, String path, String credential, Caller caller, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + credential)
                .header("traceparent", caller.traceparent())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The exported spans of the caller's trace, once their names satisfy {@code complete}. */
    private static List<SpanData> awaitTrace(Caller caller, Predicate<Set<String>> complete) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> GatewayHarness.spans().getFinishedSpanItems().stream()
                                .filter(span -> span.getTraceId().equals(caller.traceId())).toList(),
                        spans -> complete.test(spans.stream().map(SpanData::getName).collect(Collectors.toSet())));
    }

    private static SpanData only(List<SpanData> trace, String name) {
        List<SpanData> named = trace.stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(named).as("spans named " + name + " in " + names(trace)).hasSize(1);
        return named.get(0);
    }

    private static SpanData parentOf(List<SpanData> trace, SpanData span) {
        return trace.stream().filter(candidate -> candidate.getSpanId().equals(span.getParentSpanId())).findFirst()
                .orElseThrow(() -> new AssertionError(span.getName() + " has no parent in the trace " + names(trace)));
    }

    /** Every span of the trace is {@code root} or below it, each one's parent within the trace. */
    private static void assertDescendantsOf(List<SpanData> trace, SpanData root) {
        for (SpanData span : trace) {
            assertThat(span.getTraceId()).isEqualTo(root.getTraceId());
            assertThat(span == root || isDescendant(trace, span, root)).as(span.getName() + " descends from " + root.getName())
                    .isTrue();
        }
    }

    private static boolean isDescendant(List<SpanData> trace, SpanData span, SpanData ancestor) {
        SpanData current = span;
        for (int depth = 0; depth < trace.size(); depth++) {
            String parentId = current.getParentSpanId();
            if (parentId.equals(ancestor.getSpanId())) {
                return true;
            }
            current = trace.stream().filter(candidate -> candidate.getSpanId().equals(parentId)).findFirst().orElse(null);
            if (current == null) {
                return false;
            }
        }
        return false;
    }

    private static List<String> names(List<SpanData> trace) {
        return trace.stream().map(SpanData::getName).toList();
    }

    /** No attribute of any span exported so far holds the workspace's credentials or any of {@code values}. */
    private static void assertNoSecretIn(TestWorkspace ws, String... values) {
        List<String> secrets = new ArrayList<>(List.of(ws.apiKey(), ws.ownerJwt(),
                GatewayHarness.gateway().secrets().secretsKey(), GatewayHarness.gateway().secrets().jwtSecret()));
        secrets.addAll(List.of(values));
        List<SpanData> exported = GatewayHarness.spans().getFinishedSpanItems();
        assertThat(exported).isNotEmpty();
        for (SpanData span : exported) {
            span.getAttributes().forEach((key, value) -> assertThat(secrets)
                    .as("attribute " + key.getKey() + " of " + span.getName())
                    .noneMatch(secret -> String.valueOf(value).contains(secret)));
            assertThat(secrets).as("name of a span").noneMatch(secret -> span.getName().contains(secret));
        }
    }

    private static String auditCorrelationId(String auditLogId) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (Connection db = GatewayHarness.db();
                 PreparedStatement query = db.prepareStatement("select correlation_id from audit_log where id = ?::uuid")) {
                query.setString(1, auditLogId);
                try (ResultSet rs = query.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        }, id -> id != null);
    }
}
