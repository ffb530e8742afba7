package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.McpGateClients.connect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 3, the MCP gate, through the running gateway: the official MCP Java SDK client connects to
 * the gate over Streamable HTTP; the gate talks to a real SDK-built MCP server over streamable HTTP
 * or SSE with the stored credential. Allowed calls reach the upstream, blocked and held ones do not;
 * an approved held call runs there exactly once; every JSON-RPC error case over raw HTTP.
 */
class McpGateTest {
    private static final String GATE = McpGateClients.GATE;
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private static McpSyncClient sdkClient(TestWorkspace ws) {
        return McpGateClients.initialized(McpGateClients.streamable(GatewayHarness.gateway().baseUrl(), ws.apiKey(), "sdk-agent"));
    }

    private static JsonNode json(Object value) {
        return GatewayJson.MAPPER.valueToTree(value);
    }

    private static HttpResponse<String> raw(String method, String bearer, String body) {
        var builder = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        return McpGateClients.send(builder.build());
    }

    private static JsonNode rpc(TestWorkspace ws, String body) {
        var response = raw("POST", ws.apiKey(), body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return GatewayJson.MAPPER.readTree(response.body());
    }

    @Test
    void theSdkClientListsAndCallsToolsThroughTheGateOverStreamableHttpWithTheStoredBearerToken() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String token = "upstream-token-" + UUID.randomUUID();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", token);
        String marker = UUID.randomUUID().toString();
        try (McpSyncClient sdk = sdkClient(ws)) {
            assertThat(sdk.getServerInfo().name()).isEqualTo("service-mcp-gate");
            assertThat(sdk.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrderElementsOf(McpUpstreamServer.TOOLS);

            var result = sdk.callTool(new McpSchema.CallToolRequest("list_repos", Map.of("marker", marker)));
            assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("list_repos done " + marker);
            JsonNode service = json(result.meta()).get("service");
            assertThat(service.get("status").asString()).isEqualTo("allowed");
            assertThat(service.get("auditLogId").asString()).isNotBlank();
            assertThat(service.get("correlationId").asString()).isNotBlank();
            assertThat(service.has("matchedPolicyId")).isTrue();
        }
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(1);
        assertThat(UPSTREAM.authorizations).contains("Bearer " + token);
        assertThat(UPSTREAM.authorizations).noneMatch(a -> a.contains(ws.apiKey()));
    }

    @Test
    void anSseUpstreamGetsTheTokenSchemeAndAnswersThroughTheGate() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String token = "sse-token-" + UUID.randomUUID();
        connect(ws, UPSTREAM.sseUrl(), "sse", "token", token);
        String marker = UUID.randomUUID().toString();
        JsonNode answer = rpc(ws, """
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_issue","arguments":{"marker":"%s"}}}
                """.formatted(marker));
        assertThat(answer.get("id").intValue()).as(answer.toString()).isEqualTo(7);
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("create_issue done " + marker);
        assertThat(answer.at("/result/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(UPSTREAM.callsOf("create_issue", marker)).hasSize(1);
        assertThat(UPSTREAM.authorizations).contains("token " + token);
    }

    @Test
    void aBlockedCallIsAJsonRpcErrorAndNeverReachesTheUpstream() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String marker = UUID.randomUUID().toString();
        try (McpSyncClient sdk = sdkClient(ws)) {
            // _risk critical: the built-in default blocks critical
            assertThatThrownBy(() -> sdk.callTool(new McpSchema.CallToolRequest("create_issue",
                    Map.of("marker", marker, "_risk", "critical"))))
                    .isInstanceOfSatisfying(McpError.class, e -> {
                        assertThat(e.getJsonRpcError().code()).isEqualTo(-32001);
                        assertThat(e.getJsonRpcError().message()).isEqualTo("Tool call blocked by policy");
                        JsonNode data = json(e.getJsonRpcError().data());
                        assertThat(data.get("reason").asString()).isNotBlank();
                        assertThat(data.get("auditLogId").asString()).isNotBlank();
                        assertThat(data.get("correlationId").asString()).isNotBlank();
                        assertThat(data.has("matchedPolicyId")).isTrue();
                    });
        }
        assertThat(UPSTREAM.callsOf("create_issue", marker)).isEmpty();
    }

    @Test
    void theRiskOverrideIsStrippedBeforeForwardingAndAuditedAsOverridden() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String marker = UUID.randomUUID().toString();
        // delete_repo is high (held by default); the caller says low, so it runs
        JsonNode answer = rpc(ws, """
                {"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"delete_repo","arguments":{"marker":"%s","_risk":"low"}}}
                """.formatted(marker));
        assertThat(answer.at("/result/_meta/service/status").asString()).as(answer.toString()).isEqualTo("allowed");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).singleElement()
                .satisfies(call -> assertThat(call.arguments()).containsOnlyKeys("marker"));
        String auditLogId = answer.at("/result/_meta/service/auditLogId").asString();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                    "select risk_overridden_by_caller, risk_level, action from audit_log where id = ?::uuid")) {
                s.setString(1, auditLogId);
                var rs = s.executeQuery();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1)).isTrue();
                assertThat(rs.getString(2)).isEqualTo("low");
                assertThat(rs.getString(3)).isEqualTo("delete_repo");
            }
        });

        JsonNode badRisk = rpc(ws, """
                {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_repo","arguments":{"_risk":"none"}}}
                """);
        assertThat(badRisk.at("/error/code").intValue()).isEqualTo(-32602);
    }

    @Test
    void aHeldCallRunsOnceUpstreamAfterApprovalAndItsResultIsOnTheStatusEndpoint() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String marker = UUID.randomUUID().toString();
        String approvalId;
        try (McpSyncClient sdk = sdkClient(ws)) {
            var result = sdk.callTool(new McpSchema.CallToolRequest("delete_repo", Map.of("marker", marker)));
            assertThat(result.isError()).isFalse();
            JsonNode service = json(result.meta()).get("service");
            assertThat(service.get("status").asString()).isEqualTo("require_approval");
            approvalId = service.get("approvalRequestId").asString();
            assertThat(service.get("auditLogId").asString()).isNotBlank();
            assertThat(((McpSchema.TextContent) result.content().get(0)).text())
                    .contains("/functions/v1/mcp-gate/status/" + approvalId);
        }
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("held, not run").isEmpty();

        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
        var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                ws.ownerJwt(), Map.of("reason", "go"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);

        JsonNode executed = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null),
                        r -> r.status() == 200 && "executed".equals(r.text("status"))).body();
        assertThat(executed.at("/executionResult/content/0/text").asString()).isEqualTo("delete_repo done " + marker);
        assertThat(executed.at("/executionResult/isError").booleanValue()).isFalse();
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
    }

    @Test
    void aPausedMcpToolOrTheKillSwitchBlocksEveryCall() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String marker = UUID.randomUUID().toString();
        String call = """
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos","arguments":{"marker":"%s"}}}
                """.formatted(marker);
        assertThat(GatewayHarness.killSwitch(ws, "pause_tool", "mcp").status()).isEqualTo(200);
        assertThat(rpc(ws, call).at("/error/code").intValue()).isEqualTo(-32001);
        assertThat(GatewayHarness.killSwitch(ws, "resume_tool", "mcp").status()).isEqualTo(200);
        assertThat(rpc(ws, call).at("/result/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(GatewayHarness.killSwitch(ws, "enable", null).status()).isEqualTo(200);
        assertThat(rpc(ws, call).at("/error/code").intValue()).isEqualTo(-32001);
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(1);
    }

    @Test
    void toolsListIsServedFromTheCacheUntilTheConnectionChanges() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "first");
        String list = """
                {"jsonrpc":"2.0","id":1,"method":"tools/list"}
                """;
        assertThat(rpc(ws, list).at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        int before = UPSTREAM.requests.get();
        JsonNode cached = rpc(ws, list);
        assertThat(cached.at("/result/tools/0/inputSchema/type").asString()).isEqualTo("object");
        assertThat(UPSTREAM.requests.get()).as("served from the cache").isEqualTo(before);

        connect(ws, UPSTREAM.sseUrl(), "sse", "bearer", "second");
        assertThat(rpc(ws, list).at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        assertThat(UPSTREAM.requests.get()).as("a changed connection is asked again").isGreaterThan(before);
        assertThat(UPSTREAM.authorizations).contains("Bearer second");
    }

    @Test
    void theUpstreamUrlsQueryReachesTheUpstreamAsConfigured() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String query = "tenant=acme%2Fapi&region=eu";
        connect(ws, UPSTREAM.streamableUrl() + "?" + query, "http", "bearer", "q");
        String list = """
                {"jsonrpc":"2.0","id":1,"method":"tools/list"}
                """;
        assertThat(rpc(ws, list).at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        assertThat(UPSTREAM.queries).as("not encoded a second time").contains(query);
    }

    @Test
    void jsonRpcHygiene() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");

        JsonNode init = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}");
        assertThat(init.at("/result/protocolVersion").asString()).isEqualTo("2024-11-05");
        assertThat(init.at("/result/capabilities/tools/listChanged").booleanValue()).isFalse();
        assertThat(init.at("/result/serverInfo/name").asString()).isEqualTo("service-mcp-gate");
        assertThat(init.at("/result/serverInfo/version").asString()).isEqualTo("1.0.0");

        assertThat(rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").get("result").isEmpty()).isTrue();
        assertThat(rpc(ws, "{not json").at("/error/code").intValue()).isEqualTo(-32700);
        JsonNode invalid = rpc(ws, "{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}");
        assertThat(invalid.at("/error/code").intValue()).isEqualTo(-32600);
        assertThat(invalid.get("id").intValue()).isEqualTo(5);
        assertThat(rpc(ws, "[]").at("/error/code").intValue()).isEqualTo(-32600);
        JsonNode unknown = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"resources/nothing\"}");
        assertThat(unknown.at("/error/code").intValue()).isEqualTo(-32601);
        assertThat(unknown.get("id").asString()).isEqualTo("x");
        assertThat(rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}")
                .at("/error/code").intValue()).isEqualTo(-32602);
        assertThat(rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":[]}}")
                .at("/error/code").intValue()).isEqualTo(-32602);

        var notification = raw("POST", ws.apiKey(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertThat(notification.statusCode()).isEqualTo(202);
        assertThat(notification.body()).isEmpty();

        JsonNode batch = rpc(ws, """
                [{"jsonrpc":"2.0","id":1,"method":"ping"},
                 {"jsonrpc":"2.0","method":"notifications/initialized"},
                 {"jsonrpc":"2.0","id":2,"method":"nope"},
                 42]
                """);
        assertThat(batch.size()).isEqualTo(3);
        assertThat(batch.get(0).get("id").intValue()).isEqualTo(1);
        assertThat(batch.get(1).at("/error/code").intValue()).isEqualTo(-32601);
        assertThat(batch.get(2).at("/error/code").intValue()).isEqualTo(-32600);

        assertThat(raw("GET", ws.apiKey(), null).statusCode()).isEqualTo(405);
        var badKey = raw("POST", "agk_nope", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}");
        assertThat(badKey.statusCode()).isEqualTo(401);
        assertThat(GatewayJson.MAPPER.readTree(badKey.body()).get("ok").booleanValue()).isFalse();
        var noHeader = raw("POST", null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\"}}");
        assertThat(noHeader.statusCode()).isEqualTo(401);
    }

    @Test
    void aKeyWithoutTheMcpScopeIsRefused() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "eval only", "scopes", List.of("evaluate")));
        assertThat(issued.status()).as(issued.rawBody()).isIn(200, 201);
        String key = issued.text("key");
        await().atMost(Duration.ofSeconds(20)).until(() -> raw("POST", key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}")
                .statusCode() == 401);
        var call = raw("POST", key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"list_repos\"}}");
        assertThat(call.statusCode()).as(call.body()).isEqualTo(401);
    }

    @Test
    void anUnreachableOrMissingUpstreamIsAJsonRpcErrorNotA500() throws IOException {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        // tools/list checks the key against the read model: wait for the new key to be projected
        await().atMost(Duration.ofSeconds(20)).until(() -> raw("POST", ws.apiKey(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").statusCode() == 200);
        JsonNode none = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertThat(none.at("/error/code").intValue()).isEqualTo(-32002);
        assertThat(none.at("/error/message").asString()).contains("No upstream MCP server");

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        connect(ws, "http://127.0.0.1:" + closedPort + "/mcp", "http", "bearer", "t");
        try (CapturedLogLines logs = CapturedLogLines.start()) {
            JsonNode down = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            assertThat(down.at("/error/code").intValue()).as(down.toString()).isEqualTo(-32002);
            assertThat(down.at("/error/message").asString()).contains("upstream MCP server");
            JsonNode call = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"list_repos\"}}");
            assertThat(call.at("/error/code").intValue()).as(call.toString()).isEqualTo(-32002);
            // issue 14: the answer named Java classes and the upstream's address; the log has them, with the
            // correlation id the answer gives
            for (JsonNode answer : List.of(down, call)) {
                String error = answer.get("error").toString();
                assertThat(error).doesNotContain("127.0.0.1", Integer.toString(closedPort), "Exception", "java.", "io.netty",
                        "reactor.");
                String correlationId = answer.at("/error/data/correlationId").asString();
                assertThat(correlationId).isNotBlank();
                assertThat(logs.lines()).anyMatch(line -> line.contains(correlationId) && line.contains("MCP upstream failure")
                        && line.contains("Exception"));
            }
        }
    }

    private static final int MIB = 1024 * 1024;
    /** gateway.mcp.max-result-bytes, by default. */
    private static final int MAX_RESULT_BYTES = 16 * MIB;

    private static String bigCall(int id, String tool, int bytes, String marker) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{"bytes":%d,"marker":"%s"}}}
                """.formatted(id, tool, bytes, marker);
    }

    /** Issue 15: results over 256 KiB hung 20 s and came back as "did not answer in time". */
    @Test
    void largeResultsPassUpToTheBoundOnBothUpstreamTransportsAndBeyondItTheErrorSaysSo() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        for (String[] upstream : List.of(new String[] {UPSTREAM.streamableUrl(), "http"}, new String[] {UPSTREAM.sseUrl(), "sse"})) {
            connect(ws, upstream[0], upstream[1], "bearer", "t");
            for (int bytes : List.of(MIB, 10 * MIB)) {
                String marker = UUID.randomUUID().toString();
                JsonNode answer = rpc(ws, bigCall(1, "get_big_text", bytes, marker));
                assertThat(answer.at("/result/content/0/text").asString().length()).as(upstream[1] + " " + bytes).isEqualTo(bytes);
                assertThat(answer.at("/result/_meta/service/status").asString()).isEqualTo("allowed");
            }
            long start = System.nanoTime();
            JsonNode over = rpc(ws, bigCall(2, "get_big_text", MAX_RESULT_BYTES + MIB, UUID.randomUUID().toString()));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no wait for the request timeout").isLessThan(Duration.ofSeconds(15));
            assertThat(over.at("/error/code").intValue()).as(over.toString()).isEqualTo(-32002);
            assertThat(over.at("/error/message").asString()).as(upstream[1]).contains("larger than", String.valueOf(MAX_RESULT_BYTES));
            assertThat(over.at("/error/data/auditLogId").asString()).isNotBlank();
        }
    }

    /** An approved call whose answer was too large ran upstream: its status must not say it did not. */
    @Test
    void anApprovedHeldCallWithAnAnswerOverTheBoundSaysItsOutcomeIsUnknown() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String marker = UUID.randomUUID().toString();
        String approvalId = rpc(ws, bigCall(1, "delete_big_text", MAX_RESULT_BYTES + MIB, marker))
                .at("/result/_meta/service/approvalRequestId").asString();
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
        var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                ws.ownerJwt(), Map.of("reason", "go"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
        JsonNode ended = await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null),
                        r -> r.status() == 200 && !"approved".equals(r.text("status")) && !"executing".equals(r.text("status"))
                                && !"pending".equals(r.text("status"))).body();
        assertThat(UPSTREAM.callsOf("delete_big_text", marker)).as("it ran upstream").hasSize(1);
        assertThat(ended.get("status").asString()).as(ended.toString()).isNotEqualTo("executed");
        assertThat(ended.at("/executionResult/content/0/text").asString()).as(ended.toString())
                .contains("outcome is unknown").doesNotContain("Not run");
    }
}
