package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.WebhookSender.CODE_HOST;
import static io.agentgateway.launcher.support.WebhookSender.gitHubHeaders;
import static io.agentgateway.launcher.support.WebhookSender.payload;
import static io.agentgateway.launcher.support.WebhookSender.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.launcher.support.WebhookSender;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 12: once an admin call has answered, every request accepted after it uses the new state, on every
 * entry point and at once. Each test runs {@value #ROUNDS} rounds of "admin change answered → request at
 * once" on the real embedded gateway (no waiting in between) and counts every request that used anything
 * older than the change it followed (a stale use): a connection changed (new URL or base URL and a new
 * token), a connection deleted, a key revoked, a key issued. Every count must be 0.
 */
class AdminChangeRaceTest {
    static final int ROUNDS = 200;
    private static final String GATE = McpGateClients.GATE;
    private static final ProxyUpstream PROXY_UPSTREAM = ProxyUpstream.start();
    private static final McpUpstreamServer MCP_A = McpUpstreamServer.start();
    private static final McpUpstreamServer MCP_B = McpUpstreamServer.start();
    private static final HttpClient HTTP = GatewayHarness.http11Client();

    @AfterAll
    static void stopUpstreams() {
        PROXY_UPSTREAM.close();
        MCP_A.close();
        MCP_B.close();
    }

    /** The stale uses of a test, described; at most the first few are kept for the message. */
    private static final class StaleUses {
        private final List<String> seen = new ArrayList<>();
        private int count;

        void check(boolean fresh, String what) {
            if (!fresh) {
                count++;
                if (seen.size() < 10) {
                    seen.add(what);
                }
            }
        }

        void assertNone(String entryPoint, int requests) {
            assertThat(count).as("%s: stale uses in %d requests after %d rounds of admin changes; first: %s", entryPoint,
                    requests, ROUNDS, seen).isZero();
        }
    }

    /** An API key of the workspace with every scope, issued through the admin API: id and key. */
    private record Key(String id, String key) {}

    private static Key issueKey(TestWorkspace ws) {
        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "race", "scopes", List.of("evaluate", "mcp", "proxy")));
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        return new Key(issued.text("keyId"), issued.text("key"));
    }

    private static void revoke(TestWorkspace ws, Key key) {
        var revoked = client().send("DELETE", "/admin/v1/workspaces/" + ws.id() + "/api-keys/" + key.id(), ws.ownerJwt(), null);
        assertThat(revoked.status()).as(revoked.rawBody()).isEqualTo(200);
    }

    private static void putConnection(TestWorkspace ws, String tool, Map<String, Object> body) {
        var put = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool, ws.ownerJwt(), body);
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
    }

    private static void deleteConnection(TestWorkspace ws, String tool) {
        var deleted = client().send("DELETE", "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool, ws.ownerJwt(), null);
        assertThat(deleted.status()).as(deleted.rawBody()).isEqualTo(200);
    }

    // --- evaluate-action -----------------------------------------------------------------------------------------

    @Test
    void evaluateActionTakesEveryKeyChangeAtOnce() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Key key = issueKey(ws);
        StaleUses stale = new StaleUses();
        int requests = 0;
        Map<String, Object> action = GatewayHarness.action("docs", "page.read", "low");
        for (int round = 0; round < ROUNDS; round++) {
            revoke(ws, key);
            int revoked = client().send("POST", "/functions/v1/evaluate-action", key.key(), action).status();
            stale.check(revoked == 401, "round " + round + ": revoked key got " + revoked);
            key = issueKey(ws);
            int issued = client().send("POST", "/functions/v1/evaluate-action", key.key(), action).status();
            stale.check(issued == 200, "round " + round + ": new key got " + issued);
            requests += 2;
        }
        stale.assertNone("evaluate-action", requests);
    }

    // --- gateway-proxy ---------------------------------------------------------------------------------------------

    @Test
    void theProxyTakesEveryConnectionAndKeyChangeAtOnce() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Key key = issueKey(ws);
        String prefix = "/race-" + UUID.randomUUID();
        StaleUses stale = new StaleUses();
        int requests = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String base = prefix + "/r" + round;
            String token = "race-token-" + round;
            putConnection(ws, "internal_api", Map.of("base_url", PROXY_UPSTREAM.baseUrl() + base,
                    "config", Map.of("access_token", token)));
            int before = PROXY_UPSTREAM.requestsTo(prefix).size();
            HttpResponse<String> changed = proxy(key.key(), "/things?round=" + round);
            List<ProxyUpstream.Request> all = PROXY_UPSTREAM.requestsTo(prefix);
            List<ProxyUpstream.Request> arrived = all.subList(before, all.size());
            stale.check(changed.statusCode() == 200 && arrived.size() == 1 && arrived.get(0).rawPath().equals(base + "/things")
                            && ("Bearer " + token).equals(arrived.get(0).header("Authorization")),
                    "round " + round + ": after the change " + changed.statusCode() + ", arrived " + describe(arrived));

            revoke(ws, key);
            before = PROXY_UPSTREAM.requestsTo(prefix).size();
            HttpResponse<String> revoked = proxy(key.key(), "/things");
            stale.check(revoked.statusCode() == 401 && PROXY_UPSTREAM.requestsTo(prefix).size() == before,
                    "round " + round + ": revoked key got " + revoked.statusCode());

            key = issueKey(ws);
            HttpResponse<String> issued = proxy(key.key(), "/things");
            stale.check(issued.statusCode() == 200, "round " + round + ": new key got " + issued.statusCode() + " " + issued.body());

            deleteConnection(ws, "internal_api");
            before = PROXY_UPSTREAM.requestsTo(prefix).size();
            HttpResponse<String> deleted = proxy(key.key(), "/things");
            stale.check(deleted.statusCode() == 409 && PROXY_UPSTREAM.requestsTo(prefix).size() == before,
                    "round " + round + ": deleted connection got " + deleted.statusCode() + " " + deleted.body());
            requests += 4;
        }
        stale.assertNone("gateway-proxy", requests);
    }

    private static String describe(List<ProxyUpstream.Request> arrived) {
        return arrived.stream().map(r -> r.method() + " " + r.rawPath() + " " + r.header("Authorization")).toList().toString();
    }

    private static HttpResponse<String> proxy(String key, String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl()
                                + "/functions/v1/gateway-proxy/internal_api" + pathAndQuery))
                        .header("Authorization", "Bearer " + key).header("X-Agent-Id", "racer").GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    // --- MCP gate: tools/list and tools/call -------------------------------------------------------------------------

    @Test
    void mcpToolsListTakesEveryConnectionAndKeyChangeAtOnce() throws Exception {
        raceTheGate("tools/list", (key, round) -> rpc(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"),
                answer -> answer.path("result").path("tools").size() == McpUpstreamServer.TOOLS.size());
    }

    @Test
    void mcpToolsCallTakesEveryConnectionAndKeyChangeAtOnce() throws Exception {
        raceTheGate("tools/call", (key, round) -> rpc(key, """
                        {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos","arguments":{"marker":"%s"}}}
                        """.formatted(round)),
                answer -> "allowed".equals(answer.at("/result/_meta/service/status").asString(null)));
    }

    private interface GateRequest {
        HttpResponse<String> send(String key, String marker) throws Exception;
    }

    /**
     * Rounds of: the mcp connection moved to the other upstream with a new token, then a request; the key
     * revoked, then a request; a new key, then a request; the connection deleted, then a request. Every
     * request that reached an upstream is checked to have reached the current one with the current token.
     */
    private void raceTheGate(String method, GateRequest request, java.util.function.Predicate<JsonNode> answered) throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Key key = issueKey(ws);
        StaleUses stale = new StaleUses();
        int requests = 0;
        int upstreamFailures = 0;
        for (int round = 0; round < ROUNDS; round++) {
            McpUpstreamServer current = round % 2 == 0 ? MCP_A : MCP_B;
            McpUpstreamServer previous = current == MCP_A ? MCP_B : MCP_A;
            String token = "mcp-race-" + UUID.randomUUID();
            Map<String, Object> connection = new HashMap<>(Map.of("mcp_server_url", current.streamableUrl(),
                    "mcp_transport", "http", "mcp_auth_type", "bearer", "config", Map.of("access_token", token)));
            putConnection(ws, "mcp", connection);
            int currentBefore = current.received.size();
            int previousBefore = previous.received.size();
            String marker = UUID.randomUUID().toString();
            HttpResponse<String> changed = request.send(key.key(), marker);
            List<McpUpstreamServer.Received> atCurrent = calls(current, currentBefore);
            List<McpUpstreamServer.Received> atPrevious = calls(previous, previousBefore);
            // stale: anything sent to the previous upstream or with another token, or an answer as if there were
            // no connection; the upstream failing on a request that reached it with the current token is not
            boolean usedOldConnection = !atPrevious.isEmpty()
                    || atCurrent.stream().anyMatch(r -> !r.authorization().equals("Bearer " + token))
                    || !previous.callsOf("list_repos", marker).isEmpty()
                    || current.callsOf("list_repos", marker).stream().anyMatch(call -> !("Bearer " + token).equals(call.authorization()));
            boolean reachedCurrent = changed.statusCode() == 200 && (answered.test(json(changed)) || !atCurrent.isEmpty());
            stale.check(reachedCurrent && !usedOldConnection, "round " + round + ": after the change " + changed.statusCode() + " "
                    + changed.body() + "; at the current upstream " + atCurrent + ", at the previous one " + atPrevious);
            if (reachedCurrent && !answered.test(json(changed))) {
                upstreamFailures++;
                System.out.printf("MCP %s round %d: the upstream failed after the change: %s%n", method, round, changed.body());
            }

            revoke(ws, key);
            int aBeforeRevoked = MCP_A.received.size();
            int bBeforeRevoked = MCP_B.received.size();
            HttpResponse<String> revoked = request.send(key.key(), UUID.randomUUID().toString());
            stale.check(revoked.statusCode() == 401 && calls(MCP_A, aBeforeRevoked).isEmpty() && calls(MCP_B, bBeforeRevoked).isEmpty(),
                    "round " + round + ": revoked key got " + revoked.statusCode() + " " + revoked.body());

            key = issueKey(ws);
            HttpResponse<String> issued = request.send(key.key(), UUID.randomUUID().toString());
            stale.check(issued.statusCode() == 200 && answered.test(json(issued)),
                    "round " + round + ": new key got " + issued.statusCode() + " " + issued.body());

            deleteConnection(ws, "mcp");
            int aBefore = MCP_A.received.size();
            int bBefore = MCP_B.received.size();
            HttpResponse<String> deleted = request.send(key.key(), UUID.randomUUID().toString());
            stale.check(deleted.statusCode() == 200 && json(deleted).at("/error/code").asInt(0) == -32002
                            && calls(MCP_A, aBefore).isEmpty() && calls(MCP_B, bBefore).isEmpty(),
                    "round " + round + ": deleted connection got " + deleted.statusCode() + " " + deleted.body());
            requests += 4;
        }
        stale.assertNone("MCP " + method, requests);
        // reported, not failed: the SDK upstream failing on a new session is no stale use
        System.out.printf("MCP %s: %d requests, 0 stale uses, %d failed upstream after reaching the current server%n",
                method, requests, upstreamFailures);
    }

    /** The requests a server received from {@code from} on, but the DELETEs that close replaced sessions. */
    private static List<McpUpstreamServer.Received> calls(McpUpstreamServer server, int from) {
        List<McpUpstreamServer.Received> all = List.copyOf(server.received);
        return all.subList(Math.min(from, all.size()), all.size()).stream().filter(r -> !"DELETE".equals(r.method())).toList();
    }

    private static HttpResponse<String> rpc(String key, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + GATE))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return GatewayJson.MAPPER.readTree(response.body());
        } catch (RuntimeException notJson) {
            return GatewayJson.MAPPER.createObjectNode();
        }
    }

    // --- webhooks ------------------------------------------------------------------------------------------------------

    @Test
    void webhooksTakeEveryConnectionChangeAtOnce() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String org = "race-" + UUID.randomUUID().toString().substring(0, 8);
        StaleUses stale = new StaleUses();
        int requests = 0;
        String previousSecret = "never-the-secret";
        for (int round = 0; round < ROUNDS; round++) {
            // a repository the workspace did not watch before, and a new secret: both in effect once answered
            String repo = "repo-" + round;
            String secret = "whsec-" + UUID.randomUUID();
            putConnection(ws, "code_host", Map.of("config", Map.of("repos", List.of(org + "/" + repo)), "webhook_secret", secret));
            byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", repo));

            var fresh = post(CODE_HOST, body, gitHubHeaders(secret, body, "push", UUID.randomUUID().toString()));
            stale.check(fresh.status() == 200 && !fresh.body().get("duplicate").booleanValue(),
                    "round " + round + ": signed with the new secret got " + fresh.status() + " " + fresh.rawBody());
            var old = post(CODE_HOST, body, gitHubHeaders(previousSecret, body, "push", UUID.randomUUID().toString()));
            stale.check(old.status() == 401, "round " + round + ": signed with the replaced secret got " + old.status());

            deleteConnection(ws, "code_host");
            // another event (the body recorded above, sent again, is a duplicate whatever became of the connection)
            byte[] next = WebhookSender.anotherEvent(body);
            var deleted = post(CODE_HOST, next, gitHubHeaders(secret, next, "push", UUID.randomUUID().toString()));
            stale.check(deleted.status() == 401, "round " + round + ": after the delete got " + deleted.status() + " " + deleted.rawBody());
            previousSecret = secret;
            requests += 3;
        }
        stale.assertNone("webhooks", requests);
    }

    // --- the status endpoint -------------------------------------------------------------------------------------------

    @Test
    void theStatusEndpointTakesEveryKeyChangeAtOnceAndKnowsEveryApprovalItJustOpened() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Key key = issueKey(ws);
        StaleUses stale = new StaleUses();
        int requests = 0;
        for (int round = 0; round < ROUNDS; round++) {
            var held = client().send("POST", "/functions/v1/evaluate-action", key.key(),
                    GatewayHarness.action("docs", "page.publish", "high"));
            assertThat(held.text("decision")).as(held.rawBody()).isEqualTo("require_approval");
            String path = "/functions/v1/mcp-gate/status/" + held.text("approvalRequestId");
            var first = client().send("GET", path, key.key(), null);
            stale.check(first.status() == 200 && "pending".equals(first.text("status")),
                    "round " + round + ": the first GET of a new approval got " + first.status() + " " + first.rawBody());

            revoke(ws, key);
            int revoked = client().send("GET", path, key.key(), null).status();
            stale.check(revoked == 401, "round " + round + ": revoked key got " + revoked);
            key = issueKey(ws);
            var issued = client().send("GET", path, key.key(), null);
            stale.check(issued.status() == 200, "round " + round + ": new key got " + issued.status() + " " + issued.rawBody());
            requests += 3;
        }
        stale.assertNone("status endpoint", requests);
    }
}
