package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 12 item 5: an approved held call runs only if, in log order when the gateway claims it, the
 * workspace is not killed and its tool not paused. Calls held by the proxy (a code-host merge) and by
 * the MCP gate ({@code delete_repo}) are approved right after the kill switch (or the tool's pause) was
 * answered: none runs, each approval ends {@code cancelled} with the reason, and lifting the switch runs
 * none of them (the agent asks again; a call held and approved afterwards runs, once).
 */
class KillSwitchHeldCallsTest {
    static final int ROUNDS = 10;
    static final int HELD_PER_ROUND = 20;
    private static final Duration SETTLED = Duration.ofSeconds(60);
    private static final ProxyUpstream PROXY_UPSTREAM = ProxyUpstream.start();
    private static final McpUpstreamServer MCP_UPSTREAM = McpUpstreamServer.start();
    private static final HttpClient HTTP = GatewayHarness.http11Client();

    @AfterAll
    static void stopUpstreams() {
        PROXY_UPSTREAM.close();
        MCP_UPSTREAM.close();
    }

    @Test
    void proxiedMergesApprovedAfterTheKillSwitchOrThePauseWasAnsweredNeverRun() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/ks-" + UUID.randomUUID();
        put(ws, "code_host", Map.of("base_url", PROXY_UPSTREAM.baseUrl() + base, "config", Map.of("access_token", "ghp_ks")));
        Supplier<String> hold = () -> {
            HttpResponse<String> held = send(ws.apiKey(), "PUT", "/functions/v1/gateway-proxy/code_host/repos/acme/api/pulls/7/merge",
                    "{\"merge_method\":\"squash\"}");
            assertThat(held.statusCode()).as(held.body()).isEqualTo(403);
            return json(held.body()).get("approvalRequestId").asString();
        };

        List<String> cancelled = haltedRounds(ws, "code_host", hold);

        assertThat(PROXY_UPSTREAM.requestsTo(base)).as("no held merge reached the code host").isEmpty();
        assertReasonShown(ws, cancelled.get(0), "kill switch");
        assertReasonShown(ws, cancelled.get(HELD_PER_ROUND), "the tool code_host was paused");

        // the switch is off: a call held and approved now runs, once; none of the cancelled ones does
        String later = hold.get();
        approve(ws, later);
        awaitStatus(ws, later, "executed");
        assertThat(PROXY_UPSTREAM.requestsTo(base)).hasSize(1);
        assertThat(statuses(ws, cancelled)).containsOnly("cancelled");
    }

    @Test
    void mcpToolCallsApprovedAfterTheKillSwitchOrThePauseWasAnsweredNeverRun() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        put(ws, "mcp", new HashMap<>(Map.of("mcp_server_url", MCP_UPSTREAM.streamableUrl(), "mcp_transport", "http",
                "mcp_auth_type", "bearer", "config", Map.of("access_token", "mcp-ks"))));
        String marker = UUID.randomUUID().toString();
        Supplier<String> hold = () -> {
            HttpResponse<String> held = send(ws.apiKey(), "POST", "/functions/v1/mcp-gate/sse", """
                    {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_repo","arguments":{"marker":"%s"}}}
                    """.formatted(marker));
            JsonNode answer = json(held.body());
            assertThat(answer.at("/result/_meta/service/status").asString(null)).as(held.body()).isEqualTo("require_approval");
            return answer.at("/result/_meta/service/approvalRequestId").asString();
        };

        List<String> cancelled = haltedRounds(ws, "mcp", hold);

        assertThat(MCP_UPSTREAM.callsOf("delete_repo", marker)).as("no held call reached the MCP server").isEmpty();
        assertReasonShown(ws, cancelled.get(0), "kill switch");
        assertReasonShown(ws, cancelled.get(HELD_PER_ROUND), "the tool mcp was paused");

        String later = hold.get();
        approve(ws, later);
        awaitStatus(ws, later, "executed");
        assertThat(MCP_UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
        assertThat(statuses(ws, cancelled)).containsOnly("cancelled");
    }

    /**
     * Rounds of: hold {@value #HELD_PER_ROUND} calls, the kill switch on (odd rounds: the tool paused), approve
     * each at once, wait until every one ended, switch off. Every approval must end cancelled: 0 ran.
     *
     * @return the approvals, in order
     */
    private static List<String> haltedRounds(TestWorkspace ws, String tool, Supplier<String> hold) throws Exception {
        List<String> all = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<String> held = new ArrayList<>();
            for (int i = 0; i < HELD_PER_ROUND; i++) {
                held.add(hold.get());
            }
            boolean pause = round % 2 == 1;
            assertThat(GatewayHarness.killSwitch(ws, pause ? "pause_tool" : "enable", pause ? tool : null).status()).isEqualTo(200);
            held.forEach(approvalId -> approve(ws, approvalId));
            // ended, whichever way: cancelled is the only right one, anything else a failure below
            await().atMost(SETTLED).pollInterval(Duration.ofMillis(50))
                    .until(() -> statuses(ws, held).stream().noneMatch(s -> s.equals("pending") || s.equals("approved")));
            assertThat(statuses(ws, held)).as("round %d (%s): every approved call cancelled, none run", round,
                    pause ? "paused" : "killed").containsOnly("cancelled");
            assertThat(GatewayHarness.killSwitch(ws, pause ? "resume_tool" : "disable", pause ? tool : null).status()).isEqualTo(200);
            all.addAll(held);
        }
        return all;
    }

    private static void put(TestWorkspace ws, String tool, Map<String, Object> body) {
        var put = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool, ws.ownerJwt(), body);
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
    }

    private static void approve(TestWorkspace ws, String approvalId) {
        var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                ws.ownerJwt(), Map.of("reason", "go"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
    }

    private static void assertReasonShown(TestWorkspace ws, String approvalId, String reason) {
        var shown = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.text("status")).isEqualTo("cancelled");
        assertThat(shown.text("cancelReason")).contains(reason);
        assertThat(shown.body().get("executionResult").isNull()).isTrue();
        var listed = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/approvals?status=cancelled&limit=500",
                ws.ownerJwt(), null);
        assertThat(listed.body().get("items").valueStream()
                .filter(item -> item.get("id").asString().equals(approvalId))
                .map(item -> item.get("cancelReason").asString())).singleElement().asString().contains(reason);
    }

    private static void awaitStatus(TestWorkspace ws, String approvalId, String status) {
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(50)).until(() -> statuses(ws, List.of(approvalId)).equals(List.of(status)));
    }

    /** The read model's status of each approval, in order. */
    private static List<String> statuses(TestWorkspace ws, List<String> approvalIds) throws Exception {
        List<String> statuses = new ArrayList<>();
        try (Connection db = GatewayHarness.db();
             PreparedStatement query = db.prepareStatement(
                     "select status from approval_requests where workspace_id = ?::uuid and id = ?::uuid")) {
            for (String approvalId : approvalIds) {
                query.setString(1, ws.id());
                query.setString(2, approvalId);
                try (ResultSet rs = query.executeQuery()) {
                    statuses.add(rs.next() ? rs.getString(1) : "pending");
                }
            }
        }
        return statuses;
    }

    private static HttpResponse<String> send(String key, String method, String path, String body) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .header("X-Agent-Id", "held-agent")
                    .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(String body) {
        return GatewayJson.MAPPER.readTree(body);
    }
}
