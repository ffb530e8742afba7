package io.agentgateway.launcher;

import static io.agentgateway.launcher.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.GatewayHarness.TestWorkspace;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gate keeps a workspace's mcp connection in memory rather than reading PostgreSQL on every
 * call, and drops it when the events topic says the connection changed.
 */
class McpConnectionCacheTest {
    private static final String GATE = "/functions/v1/mcp-gate/sse";
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();
    private static final HttpClient RAW = HttpClient.newHttpClient();

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private static void connect(TestWorkspace ws, String url, String transport, String token) {
        var r = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(),
                Map.of("mcp_server_url", url, "mcp_transport", transport, "mcp_auth_type", "bearer",
                        "config", Map.of("access_token", token)));
        assertThat(r.status()).as(r.rawBody()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            var got = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), null);
            return got.status() == 200 && url.equals(got.body().path("mcp_server_url").asString(null));
        });
    }

    private static JsonNode call(TestWorkspace ws, String marker) throws Exception {
        var response = RAW.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos","arguments":{"marker":"%s"}}}
                        """.formatted(marker))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return GatewayJson.MAPPER.readTree(response.body());
    }

    @Test
    void callsAreServedFromTheCachedConnectionUntilItChanges() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, UPSTREAM.streamableUrl(), "http", "first-" + UUID.randomUUID());
        String marker = UUID.randomUUID().toString();
        assertThat(call(ws, marker).at("/result/_meta/service/status").asString()).isEqualTo("allowed");

        // the read model loses the row behind the gateway's back: the cached connection still serves
        try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                "delete from tool_connections where workspace_id = ?::uuid and tool = 'mcp'")) {
            s.setString(1, ws.id());
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        JsonNode cached = call(ws, marker);
        assertThat(cached.at("/result/_meta/service/status").asString()).as(cached.toString()).isEqualTo("allowed");
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(2);

        // a change on the log drops it: the next call reads the new connection
        String second = "second-" + UUID.randomUUID();
        connect(ws, UPSTREAM.sseUrl(), "sse", second);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            call(ws, marker);
            assertThat(UPSTREAM.authorizations).contains("Bearer " + second);
        });

        // deleted on the log: no upstream any more
        var deleted = client().send("DELETE", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), null);
        assertThat(deleted.status()).as(deleted.rawBody()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(call(ws, marker).at("/error/code").asInt(0)).isEqualTo(-32002));
    }
}
