package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.EdgeReplica;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15 through the running gateway: what the gate relays beyond tools (resources, prompts, with
 * resources/read and prompts/get decided by policy), its sessions (a sealed {@code Mcp-Session-Id} any
 * ingress replica serves), the Origin check, the JSON-RPC and HTTP hygiene of the list, and
 * upstream restarts on each transport (a call, a list and an approved held call across them).
 */
class McpGateRelayTest {
    private static final String GATE = McpGateClients.GATE;
    private static final HttpClient RAW = HttpClient.newHttpClient();
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();

    private static HttpResponse<String> post(String baseUrl, String key, String body, String... headers) {
        var builder = HttpRequest.newBuilder(URI.create(baseUrl + GATE)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            builder.setHeader(headers[i], headers[i + 1]);
        }
        return McpGateClients.send(builder.build());
    }

    private static JsonNode rpc(String baseUrl, TestWorkspace ws, String body, String... headers) {
        var response = post(baseUrl, ws.apiKey(), body, headers);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return GatewayJson.MAPPER.readTree(response.body());
    }

    private static JsonNode rpc(TestWorkspace ws, String body) {
        return rpc(GatewayHarness.gateway().baseUrl(), ws, body);
    }

    private static String main() {
        return GatewayHarness.gateway().baseUrl();
    }

    @Test
    void resourcesAndPromptsAreRelayedAndReadsAndPromptsAreDecidedByPolicy() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        JsonNode init = rpc(ws, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
                 "clientInfo":{"name":"t","version":"1"}}}""");
        assertThat(init.at("/result/capabilities/resources").isObject()).as(init.toString()).isTrue();
        assertThat(init.at("/result/capabilities/prompts").isObject()).isTrue();

        JsonNode resources = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\"}");
        assertThat(resources.at("/result/resources").findValuesAsString("uri")).as(resources.toString())
                .containsExactlyInAnyOrderElementsOf(McpUpstreamServer.RESOURCES);
        JsonNode read = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"test://readme\"}}");
        assertThat(read.at("/result/contents/0/text").asString()).as(read.toString()).isEqualTo("contents of test://readme");
        JsonNode prompts = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\"}");
        assertThat(prompts.at("/result/prompts/0/name").asString()).isEqualTo("greeting");
        JsonNode prompt = rpc(ws, """
                {"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"greeting","arguments":{"name":"Ada"}}}""");
        assertThat(prompt.at("/result/messages/0/content/text").asString()).as(prompt.toString()).isEqualTo("Hello Ada");

        // a policy on reads of one resource id: the read is an action of its own
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "no secret reads", "priority", 10, "decision", "block",
                "match", Map.of("tools", List.of("mcp"), "actions", List.of("resources/read"), "resourceIds", List.of("test://secret/*"))));
        assertThat(policy.status()).as(policy.rawBody()).isEqualTo(201);
        JsonNode blocked = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{\"uri\":\"test://secret/plans\"}}");
        assertThat(blocked.at("/error/code").intValue()).as(blocked.toString()).isEqualTo(-32001);
        assertThat(blocked.at("/error/data/auditLogId").asString()).isNotBlank();
        assertThat(rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"test://readme\"}}")
                .at("/result/contents/0/text").asString()).isEqualTo("contents of test://readme");

        // both reads are in the audit log as actions of the mcp tool
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            var page = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=50", ws.ownerJwt(), null);
            assertThat(page.body().get("items").findValuesAsString("action")).contains("resources/read", "prompts/get");
        });
    }

    @Test
    void toolsListStopsWithTheKillSwitchAndAPausedMcpLikeACall() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        assertThat(rpc(ws, list).at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        assertThat(GatewayHarness.killSwitch(ws, "pause_tool", "mcp").status()).isEqualTo(200);
        JsonNode paused = rpc(ws, list);
        assertThat(paused.at("/error/code").intValue()).as(paused.toString()).isEqualTo(-32001);
        assertThat(paused.has("result")).isFalse();
        assertThat(GatewayHarness.killSwitch(ws, "resume_tool", "mcp").status()).isEqualTo(200);
        assertThat(rpc(ws, list).at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        assertThat(GatewayHarness.killSwitch(ws, "enable", null).status()).isEqualTo(200);
        assertThat(rpc(ws, list).at("/error/code").intValue()).isEqualTo(-32001);
        assertThat(GatewayHarness.killSwitch(ws, "disable", null).status()).isEqualTo(200);
    }

    @Test
    void noApprovalIsOpenedForACallWithoutAnMcpConnectionOrToAnUnreachableUpstream() throws IOException {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String held = call(1, "delete_repo", UUID.randomUUID().toString()); // high risk: would be held
        JsonNode none = await().atMost(Duration.ofSeconds(20)).until(() -> rpc(ws, held), a -> a.has("error"));
        assertThat(none.at("/error/code").intValue()).as(none.toString()).isEqualTo(-32002);
        assertThat(none.at("/error/message").asString()).contains("No upstream MCP server");

        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        McpGateClients.connect(ws, "http://127.0.0.1:" + closedPort + "/mcp", "http", "bearer", "t");
        JsonNode down = rpc(ws, held);
        assertThat(down.at("/error/code").intValue()).as(down.toString()).isEqualTo(-32002);
        var approvals = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/approvals?limit=500", ws.ownerJwt(), null);
        assertThat(approvals.status()).as(approvals.rawBody()).isEqualTo(200);
        assertThat(approvals.body().get("items")).as(approvals.rawBody()).isEmpty();
    }

    @Test
    void progressNotificationsOfACallReachTheClientWithItsOwnTokenOnBothClientTransports() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        var streamable = McpGateClients.streamable(main(), ws.apiKey(), null);
        var sse = McpGateClients.sse(main(), ws.apiKey(), null);
        for (var transport : List.of(streamable, sse)) {
            List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
            // the async client: it hands notifications over in the order they arrive (the sync client runs
            // each consumer call on its own boundedElastic worker, so two could be seen in either order)
            McpAsyncClient sdk = McpClient.async(transport).requestTimeout(Duration.ofSeconds(20))
                    .progressConsumer(notification -> Mono.fromRunnable(() -> progress.add(notification))).build();
            try {
                sdk.initialize().block(Duration.ofSeconds(20));
                String marker = UUID.randomUUID().toString();
                var result = sdk.callTool(McpSchema.CallToolRequest.builder("read_report").arguments(Map.of("marker", marker))
                        .progressToken("client-token-7").build()).block(Duration.ofSeconds(20));
                assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("read_report done " + marker);
                await().atMost(Duration.ofSeconds(5)).until(() -> progress.size() == 2);
                assertThat(progress).extracting(McpSchema.ProgressNotification::progressToken).containsOnly("client-token-7");
                assertThat(progress).extracting(McpSchema.ProgressNotification::message).containsExactly("half", "done");
            } finally {
                sdk.closeGracefully().block(Duration.ofSeconds(10));
            }
        }
    }

    @Test
    void aSessionIdIsServedByEitherIngressReplicaAndOnlyForItsKey() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        var init = post(main(), ws.apiKey(), """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
                 "clientInfo":{"name":"t","version":"1"}}}""");
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(session).matches("[\\x21-\\x7E]+");
        String marker = UUID.randomUUID().toString();
        String call = """
                {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_repos","arguments":{"marker":"%s"}}}
                """.formatted(marker);

        // the client's requests alternate between the replicas, on the one session
        assertThat(rpc(EdgeReplica.baseUrl(), ws, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", "Mcp-Session-Id", session)
                .at("/result/tools").size()).isEqualTo(McpUpstreamServer.TOOLS.size());
        assertThat(rpc(main(), ws, call, "Mcp-Session-Id", session).at("/result/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(rpc(EdgeReplica.baseUrl(), ws, call.replace("\"id\":3", "\"id\":4"), "Mcp-Session-Id", session)
                .at("/result/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(2);

        // another key, an altered id, an id of no one: unknown sessions (404)
        TestWorkspace other = GatewayHarness.newWorkspace();
        assertThat(post(main(), other.apiKey(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Mcp-Session-Id", session)
                .statusCode()).isEqualTo(404);
        String altered = session.substring(0, session.length() - 3) + (session.endsWith("AAA") ? "BBB" : "AAA");
        assertThat(post(main(), ws.apiKey(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Mcp-Session-Id", altered)
                .statusCode()).isEqualTo(404);
        var unknown = post(main(), ws.apiKey(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Mcp-Session-Id", "nope");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(GatewayJson.MAPPER.readTree(unknown.body()).get("ok").booleanValue()).isFalse();
    }

    @Test
    void originsContentTypesNullIdsAndUnknownVersions() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        var evil = post(main(), ws.apiKey(), ping, "Origin", "http://evil.example.com");
        assertThat(evil.statusCode()).as(evil.body()).isEqualTo(403);
        assertThat(GatewayJson.MAPPER.readTree(evil.body()).get("ok").booleanValue()).isFalse();
        assertThat(post(main(), ws.apiKey(), ping, "Origin", "http://localhost:6274").statusCode()).isEqualTo(200);
        assertThat(post(main(), ws.apiKey(), ping).statusCode()).as("no Origin: no browser").isEqualTo(200);
        try {
            var stream = RAW.send(HttpRequest.newBuilder(URI.create(main() + GATE)).header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + ws.apiKey()).header("Origin", "http://evil.example.com").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stream.statusCode()).as("the HTTP+SSE stream too").isEqualTo(403);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }

        var text = post(main(), ws.apiKey(), ping, "Content-Type", "text/plain");
        assertThat(text.statusCode()).as(text.body()).isEqualTo(415);
        assertThat(GatewayJson.MAPPER.readTree(text.body()).get("ok").booleanValue()).isFalse();

        JsonNode nullId = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}");
        assertThat(nullId.at("/error/code").intValue()).as(nullId.toString()).isEqualTo(-32600);

        JsonNode future = rpc(ws, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},
                 "clientInfo":{"name":"t","version":"1"}}}""");
        assertThat(future.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
    }

    @Test
    void aStreamableHttpUpstreamRestartLosesNoCallAndNoApproval() {
        restartAcross("http");
    }

    @Test
    void anSseUpstreamRestartLosesNoCallAndNoApproval() {
        restartAcross("sse");
    }

    private static void restartAcross(String transport) {
        McpUpstreamServer first = McpUpstreamServer.start();
        int port = first.port();
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, "http".equals(transport) ? first.streamableUrl() : first.sseUrl(), transport, "bearer", "t");
        String before = UUID.randomUUID().toString();
        assertThat(rpc(ws, call(1, "list_repos", before)).at("/result/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(first.callsOf("list_repos", before)).hasSize(1);
        // held before the restart, approved after it
        String held = UUID.randomUUID().toString();
        String approvalId = rpc(ws, call(2, "delete_repo", held)).at("/result/_meta/service/approvalRequestId").asString();
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);

        first.close();
        McpUpstreamServer second = McpUpstreamServer.start(port);
        try {
            // the approved call is the first to meet the restarted upstream
            var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                    ws.ownerJwt(), Map.of("reason", "go"));
            assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
            JsonNode executed = await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                    .until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null),
                            r -> r.status() == 200 && !List.of("pending", "approved", "executing").contains(r.text("status"))).body();
            assertThat(executed.get("status").asString()).as(transport + ": " + executed).isEqualTo("executed");
            assertThat(second.callsOf("delete_repo", held)).hasSize(1);
            String after = UUID.randomUUID().toString();
            JsonNode answer = rpc(ws, call(3, "list_repos", after));
            assertThat(answer.at("/result/_meta/service/status").asString()).as(transport + ": " + answer).isEqualTo("allowed");
            assertThat(second.callsOf("list_repos", after)).hasSize(1);
            JsonNode list = rpc(ws, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/list\"}");
            assertThat(list.at("/result/resources").size()).as(transport + ": " + list).isEqualTo(McpUpstreamServer.RESOURCES.size());

        } finally {
            second.close();
        }
    }

    private static String call(int id, String tool, String marker) {
        return """
                {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{"marker":"%s"}}}
                """.formatted(id, tool, marker);
    }
}
