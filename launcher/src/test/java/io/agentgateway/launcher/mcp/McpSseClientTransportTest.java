package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The older HTTP+SSE client transport at the gate's URL, with the official SDK client
 * ({@link HttpClientSseClientTransport}), next to the Streamable HTTP client on the same URL: allowed,
 * blocked and held calls; the session bound to the key that opened it; the audit entry showing the
 * call's arguments without {@code _risk}.
 */
class McpSseClientTransportTest {
    private static final String GATE = McpGateClients.GATE;
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();
    private static final HttpClient RAW = HttpClient.newHttpClient();

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private static TestWorkspace connectedWorkspace() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        var r = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(),
                Map.of("mcp_server_url", UPSTREAM.streamableUrl(), "mcp_transport", "http", "mcp_auth_type", "bearer",
                        "config", Map.of("access_token", "sse-client-token")));
        assertThat(r.status()).as(r.rawBody()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET",
                "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), null).status() == 200);
        // the GET of the event stream checks the key against the read model: wait for it to be projected
        await().atMost(Duration.ofSeconds(20)).until(() -> post(ws.apiKey(), "", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .statusCode() == 200);
        return ws;
    }

    private static McpSyncClient sseClient(String apiKey) {
        return McpGateClients.initialized(McpGateClients.sse(GatewayHarness.gateway().baseUrl(), apiKey, "sse-agent"));
    }

    private static McpSyncClient streamableClient(String apiKey) {
        return McpGateClients.initialized(McpGateClients.streamable(GatewayHarness.gateway().baseUrl(), apiKey, null));
    }

    private static HttpResponse<String> post(String apiKey, String query, String body) {
        return send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE + query))
                .header("Authorization", "Bearer " + apiKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return RAW.send(request, handler);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(Object value) {
        return GatewayJson.MAPPER.valueToTree(value);
    }

    @Test
    void theSseSdkClientIsAllowedBlockedAndHeldThroughTheGate() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        String approvalId;
        try (McpSyncClient sdk = sseClient(ws.apiKey())) {
            assertThat(sdk.getServerInfo().name()).isEqualTo("service-mcp-gate");
            assertThat(sdk.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrderElementsOf(McpUpstreamServer.TOOLS);

            var allowed = sdk.callTool(new McpSchema.CallToolRequest("list_repos", Map.of("marker", marker)));
            assertThat(((McpSchema.TextContent) allowed.content().get(0)).text()).isEqualTo("list_repos done " + marker);
            assertThat(json(allowed.meta()).at("/service/status").asString()).isEqualTo("allowed");

            assertThatThrownBy(() -> sdk.callTool(new McpSchema.CallToolRequest("create_issue",
                    Map.of("marker", marker, "_risk", "critical"))))
                    .isInstanceOfSatisfying(McpError.class, e -> {
                        assertThat(e.getJsonRpcError().code()).isEqualTo(-32001);
                        assertThat(json(e.getJsonRpcError().data()).get("auditLogId").asString()).isNotBlank();
                    });

            var held = sdk.callTool(new McpSchema.CallToolRequest("delete_repo", Map.of("marker", marker)));
            assertThat(held.isError()).isFalse();
            approvalId = json(held.meta()).at("/service/approvalRequestId").asString();
            assertThat(json(held.meta()).at("/service/status").asString()).isEqualTo("require_approval");
            sdk.ping();
        }
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(1);
        assertThat(UPSTREAM.callsOf("create_issue", marker)).as("blocked").isEmpty();
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("held").isEmpty();
        assertThat(approvalId).isNotBlank();
    }

    @Test
    void bothSdkTransportsWorkOnTheSameUrlAtTheSameTime() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        try (McpSyncClient sse = sseClient(ws.apiKey()); McpSyncClient streamable = streamableClient(ws.apiKey())) {
            sse.callTool(new McpSchema.CallToolRequest("read_file", Map.of("marker", marker)));
            streamable.callTool(new McpSchema.CallToolRequest("read_file", Map.of("marker", marker)));
            sse.callTool(new McpSchema.CallToolRequest("read_file", Map.of("marker", marker)));
        }
        assertThat(UPSTREAM.callsOf("read_file", marker)).hasSize(3);
    }

    @Test
    void theStreamIsBoundToTheKeyThatOpenedIt() throws Exception {
        TestWorkspace ws = connectedWorkspace();
        TestWorkspace other = connectedWorkspace();

        // a GET that is not an HTTP+SSE client is still 405 (Streamable HTTP clients expect it)
        var plain = send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Authorization", "Bearer " + ws.apiKey()).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(405);
        var streamable = send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Accept", "text/event-stream")
                .header("MCP-Protocol-Version", "2025-06-18").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(streamable.statusCode()).isEqualTo(405);
        var badKey = send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Authorization", "Bearer agk_nope").header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badKey.statusCode()).isEqualTo(401);
        assertThat(GatewayJson.MAPPER.readTree(badKey.body()).get("error").asString()).isEqualTo("Invalid or expired API key");

        HttpResponse<InputStream> stream = send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        try (var lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("event:endpoint");
            String data = lines.readLine();
            assertThat(data).startsWith("data:" + GATE + "?sessionId=");
            String query = data.substring(("data:" + GATE).length());

            var foreign = post(other.apiKey(), query, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
            assertThat(foreign.statusCode()).isEqualTo(403);
            assertThat(GatewayJson.MAPPER.readTree(foreign.body()).get("error").asString())
                    .isEqualTo("The MCP session was opened with another API key");
            assertThat(post(ws.apiKey(), "?sessionId=" + UUID.randomUUID(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                    .statusCode()).isEqualTo(404);
            assertThat(post(ws.apiKey(), "?sessionId=nope", "{}").statusCode()).isEqualTo(404);

            var accepted = post(ws.apiKey(), query, "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}");
            assertThat(accepted.statusCode()).isEqualTo(202);
            assertThat(accepted.body()).isEmpty();
            assertThat(post(ws.apiKey(), query, "{not json").statusCode()).isEqualTo(202);
            List<String> events = List.of(nextData(lines), nextData(lines));
            assertThat(events).anySatisfy(e -> assertThat(GatewayJson.MAPPER.readTree(e).path("id").asInt(-1)).isEqualTo(42));
            assertThat(events).anySatisfy(e -> assertThat(GatewayJson.MAPPER.readTree(e).at("/error/code").asInt(0))
                    .isEqualTo(-32700));
        }
    }

    private static String nextData(BufferedReader lines) throws Exception {
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.startsWith("data:")) {
                return line.substring("data:".length());
            }
        }
        throw new IllegalStateException("the stream ended");
    }

    @Test
    void theAuditEntryShowsTheArgumentsWithoutTheRiskOverride() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        var answer = post(ws.apiKey(), "", """
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"marker":"%s","path":"a/b.txt","_risk":"low"}}}
                """.formatted(marker));
        String auditLogId = GatewayJson.MAPPER.readTree(answer.body()).at("/result/_meta/service/auditLogId").asString();
        String big = "x".repeat(70_000);
        var large = post(ws.apiKey(), "", """
                {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"marker":"%s","blob":"%s"}}}
                """.formatted(marker, big));
        String largeAuditId = GatewayJson.MAPPER.readTree(large.body()).at("/result/_meta/service/auditLogId").asString();
        assertThat(UPSTREAM.callsOf("read_file", marker)).as("the upstream got both whole").hasSize(2);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                    "select payload_excerpt, payload_truncated from audit_log where id = ?::uuid")) {
                s.setString(1, auditLogId);
                var rs = s.executeQuery();
                assertThat(rs.next()).isTrue();
                JsonNode payload = GatewayJson.MAPPER.readTree(rs.getString(1));
                assertThat(payload.get("marker").asString()).isEqualTo(marker);
                assertThat(payload.get("path").asString()).isEqualTo("a/b.txt");
                assertThat(payload.has("_risk")).isFalse();
                assertThat(rs.getBoolean(2)).isFalse();

                s.setString(1, largeAuditId);
                var large2 = s.executeQuery();
                assertThat(large2.next()).isTrue();
                // cut by the gate to its summary, and that again to the stream's excerpt length
                assertThat(large2.getString(1)).startsWith("{\"truncated\":true,\"bytes\":");
                assertThat(large2.getBoolean(2)).isTrue();
            }
        });
    }
}
