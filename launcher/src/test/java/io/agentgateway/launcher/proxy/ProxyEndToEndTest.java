package io.agentgateway.launcher.proxy;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.ProxyTestSupport;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.schemas.GatewayJson;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The outbound proxy end to end (spec 4.5): the whole gateway in one JVM, a real HTTP server standing
 * in for the code host, the issue tracker and an internal API, asserting what arrives there and what
 * comes back to the agent.
 */
class ProxyEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(20);
    private static final String AGENT_ID = "agent-7";
    private static final ProxyUpstream upstream = ProxyUpstream.start();
    private static final HttpClient http = GatewayHarness.http11Client();

    @AfterAll
    static void stopUpstream() {
        upstream.close();
    }

    record Answer(int status, java.net.http.HttpHeaders headers, byte[] body) {
        public JsonNode json() {
            return GatewayJson.MAPPER.readTree(body);
        }

        String text(String field) {
            JsonNode value = json().get(field);
            return value == null || value.isNull() ? null : value.asString();
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        String raw() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    // --- the twelve rows of spec 4.5 and what the built-in defaults make of their risks --------------------------

    @Test
    void everyCodeHostRowIsClassifiedAndDecidedByItsRisk() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/gh-" + UUID.randomUUID();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token()), "base_url", upstream.baseUrl() + base));

        // method, path, action, risk, status under the defaults (low/medium allow, high hold, critical block; a held
        // call is answered 403 as a blocked one is, issue 16: the audit row tells them apart)
        List<List<Object>> rows = List.of(
                List.of("GET", "/repos/acme/api/issues", "read", "low", 200),
                List.of("POST", "/repos/acme/api/issues", "issues.create", "medium", 200),
                List.of("PATCH", "/repos/acme/api/issues/12", "issues.update", "medium", 200),
                List.of("POST", "/repos/acme/api/issues/12/comments", "issues.comment.create", "medium", 200),
                List.of("POST", "/repos/acme/api/pulls", "pull_request.create", "high", 403),
                List.of("PATCH", "/repos/acme/api/pulls/7", "pull_request.update", "medium", 200),
                List.of("PUT", "/repos/acme/api/pulls/7/merge", "pull_request.merge", "high", 403),
                List.of("PUT", "/repos/acme/api/contents/docs/guide.md", "file.write", "high", 403),
                List.of("DELETE", "/repos/acme/api/contents/docs/guide.md", "file.delete", "critical", 403),
                List.of("POST", "/repos/acme/api/releases", "release.create", "high", 403),
                List.of("DELETE", "/repos/acme/api/git/refs/heads/feature/x", "ref.delete", "critical", 403),
                List.of("POST", "/repos/acme/api/actions/workflows/ci.yml/dispatches", "workflow.dispatch", "high", 403),
                // DESIGN.md: what no row matches
                List.of("GET", "/user/repos", "read", "low", 200),
                List.of("POST", "/user/repos", "user.repos.post", "medium", 200),
                List.of("DELETE", "/repos/acme/api/hooks/42", "repos.hooks.delete", "high", 403));
        for (List<Object> row : rows) {
            String method = (String) row.get(0);
            String path = (String) row.get(1);
            byte[] body = method.equals("GET") || method.equals("DELETE") ? new byte[0] : "{\"title\":\"t\"}".getBytes(StandardCharsets.UTF_8);
            long before = arrivals(base + path, method);
            Answer answer = proxy(ws, method, "code_host", path, body);
            assertThat(answer.status()).as(method + " " + path + ": " + answer.raw()).isEqualTo(row.get(4));
            assertThat(arrivals(base + path, method)).as("the upstream saw " + method + " " + path + " only if allowed")
                    .isEqualTo(before + (answer.status() == 200 ? 1 : 0));
            Map<String, String> audit = auditRow(answer.header("X-Correlation-Id"));
            assertThat(audit.get("action")).as(path).isEqualTo(row.get(2));
            assertThat(audit.get("risk_level")).as(path).isEqualTo(row.get(3));
            assertThat(audit.get("decision")).as(path).isEqualTo(switch ((String) row.get(3)) {
                case "high" -> "require_approval";
                case "critical" -> "block";
                default -> "allow";
            });
            assertThat(audit.get("source")).isEqualTo("proxy");
            assertThat(audit.get("agent_id")).isEqualTo(AGENT_ID);
            assertThat(audit.get("risk_classification")).isEqualTo("server_classified");
        }
    }

    // --- what crosses the proxy, both ways --------------------------------------------------------------------------

    @Test
    void requestsAndResponsesCrossUnchangedWithTheToolsCredentialInsteadOfTheAgents() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/gh-" + UUID.randomUUID();
        String token = token();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));

        Answer listed = proxy(ws, "GET", "code_host", "/repos/acme/api/issues?state=open&labels=a%2Cb&q=%C3%A9+x", new byte[0],
                "X-Custom", "kept", "Accept", "text/plain", "X-Test-Status", "206");
        assertThat(listed.status()).isEqualTo(206);
        assertThat(listed.raw()).isEqualTo("{\"done\":\"" + base + "/repos/acme/api/issues\"}");
        assertThat(listed.header("Link")).isEqualTo(ProxyUpstream.LINK);
        assertThat(listed.header("X-RateLimit-Remaining")).isEqualTo("4999");
        assertThat(listed.header("Content-Type")).isEqualTo("application/json");
        assertThat(listed.header("X-Correlation-Id")).isNotBlank();
        assertThat(listed.header("X-Gateway-Audit-Log-Id")).isNotBlank();

        ProxyUpstream.Request arrived = upstream.requestsTo(base + "/repos/acme/api/issues").get(0);
        assertThat(arrived.method()).isEqualTo("GET");
        assertThat(arrived.rawQuery()).isEqualTo("state=open&labels=a%2Cb&q=%C3%A9+x");
        assertThat(arrived.header("Authorization")).isEqualTo("token " + token);
        assertThat(arrived.headers().get("Authorization")).hasSize(1);
        assertThat(arrived.header("User-agent")).isEqualTo("service/1.0");
        assertThat(arrived.header("Accept")).isEqualTo("application/vnd.github.v3+json");
        assertThat(arrived.header("X-custom")).isEqualTo("kept");
        assertThat(arrived.headers()).doesNotContainKey("X-agent-id");
        assertThat(arrived.headers().toString()).doesNotContain(ws.apiKey());

        Answer missing = proxy(ws, "GET", "code_host", "/repos/acme/api/nothing", new byte[0], "X-Test-Status", "404");
        assertThat(missing.status()).as("the upstream's own error status comes back as it is").isEqualTo(404);
        assertThat(missing.raw()).isEqualTo("{\"done\":\"" + base + "/repos/acme/api/nothing\"}");

        byte[] binary = ProxyUpstream.pattern(300_000);
        Answer created = proxy(ws, "POST", "code_host", "/repos/acme/api/issues", binary, "Content-Type", "application/octet-stream");
        assertThat(created.status()).isEqualTo(200);
        ProxyUpstream.Request upload = upstream.requestsTo(base + "/repos/acme/api/issues").stream()
                .filter(r -> r.method().equals("POST")).findFirst().orElseThrow();
        assertThat(upload.body()).isEqualTo(binary);
        assertThat(upload.header("Content-Type")).isEqualTo("application/octet-stream");

        Answer download = proxy(ws, "GET", "code_host", "/repos/acme/api/bytes/3000000", new byte[0]);
        assertThat(download.status()).isEqualTo(200);
        assertThat(download.header("Content-Type")).isEqualTo("application/octet-stream");
        assertThat(download.body()).isEqualTo(ProxyUpstream.pattern(3_000_000));

        int before = upstream.requestsTo(base).size();
        Answer tooLarge = proxy(ws, "POST", "code_host", "/repos/acme/api/issues", new byte[400_000]);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.text("error")).isEqualTo("Request body too large");
        assertThat(tooLarge.text("correlationId")).isEqualTo(tooLarge.header("X-Correlation-Id"));
        assertThat(upstream.requestsTo(base)).hasSize(before);
    }

    // --- the issue tracker's GraphQL --------------------------------------------------------------------------------

    @Test
    void issueTrackerGraphQlIsParsedClassifiedAndForwardedWithABearerToken() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/lin-" + UUID.randomUUID();
        String token = token();
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));

        String query = "{\"query\":\"query Issues($first: Int) { issues(first: $first) { nodes { ...Fields } } } "
                + "fragment Fields on Issue { id title }\",\"variables\":{\"first\":2}}";
        Answer read = proxy(ws, "POST", "issue_tracker", "/graphql", query.getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
        assertThat(read.status()).as(read.raw()).isEqualTo(200);
        ProxyUpstream.Request arrived = upstream.requestsTo(base + "/graphql").get(0);
        assertThat(arrived.method()).isEqualTo("POST");
        assertThat(arrived.header("Authorization")).isEqualTo("Bearer " + token);
        assertThat(new String(arrived.body(), StandardCharsets.UTF_8)).isEqualTo(query);
        assertThat(auditRow(read.header("X-Correlation-Id")).get("action")).isEqualTo("read");

        String several = "{\"query\":\"query Read { viewer { id } } mutation Tidy { ...Cleanup } "
                + "fragment Cleanup on Mutation { issueDelete(id: $id) { success } }\",\"operationName\":\"Tidy\","
                + "\"variables\":{\"id\":\"ISS-1\"}}";
        Answer held = proxy(ws, "POST", "issue_tracker", "/graphql", several.getBytes(StandardCharsets.UTF_8));
        assertThat(held.status()).as(held.raw()).isEqualTo(403);
        assertThat(held.json().at("/errors/0/extensions/code").asString()).isEqualTo("GATEWAY_APPROVAL_REQUIRED");
        Map<String, String> audit = auditRow(held.header("X-Correlation-Id"));
        assertThat(audit.get("action")).isEqualTo("issue.delete");
        assertThat(audit.get("risk_level")).isEqualTo("high");

        Answer malformed = proxy(ws, "POST", "issue_tracker", "/graphql", "{\"query\":\"mutation { issueCreate( }\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.text("error")).startsWith("Malformed GraphQL query: ");
        Answer ambiguous = proxy(ws, "POST", "issue_tracker", "/graphql", "{\"query\":\"query A { a } query B { b }\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(ambiguous.status()).isEqualTo(400);
        assertThat(ambiguous.text("error")).isEqualTo("operationName is required when the document holds several operations");
        Answer elsewhere = proxy(ws, "POST", "issue_tracker", "/rest/issues", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(elsewhere.status()).isEqualTo(404);
        assertThat(upstream.requestsTo(base)).hasSize(1);
    }

    // --- decisions: blocked, held, approved and executed once --------------------------------------------------------

    @Test
    void blockedCallsNeverLeaveAndHeldOnesRunOnceAfterApprovalWithoutATokenShowing() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/gh-" + UUID.randomUUID();
        String token = token();
        List<String> responses = new ArrayList<>();
        List<String> logged;
        try (CapturedLogLines logs = CapturedLogLines.start()) {
            connect(ws, "code_host", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));
            var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(),
                    Map.of("name", "no new issues", "priority", 10, "enabled", true, "decision", "block",
                            "match", Map.of("tools", List.of("code_host"), "actions", List.of("issues.create"))));
            assertThat(policy.status()).as(policy.rawBody()).isIn(200, 201);
            String policyId = policy.text("policyId");

            Answer blocked = await().atMost(PROJECTED).until(
                    () -> proxy(ws, "POST", "code_host", "/repos/acme/api/issues", "{\"title\":\"x\"}".getBytes(StandardCharsets.UTF_8)),
                    answer -> answer.status() == 403);
            responses.add(blocked.raw());
            assertThat(blocked.json().get("ok").booleanValue()).isFalse();
            assertThat(blocked.text("error")).isEqualTo("Blocked by the gateway");
            assertThat(blocked.text("decision")).isEqualTo("block");
            assertThat(blocked.text("matchedPolicyId")).isEqualTo(policyId);
            assertThat(blocked.text("reason")).isNotBlank();
            assertThat(blocked.text("auditLogId")).isNotBlank();
            assertThat(blocked.text("correlationId")).isEqualTo(blocked.header("X-Correlation-Id"));
            assertThat(upstream.requestsTo(base + "/repos/acme/api/issues")).isEmpty();

            String marker = UUID.randomUUID().toString();
            byte[] mergeBody = ("{\"commit_title\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8);
            Answer held = proxy(ws, "PUT", "code_host", "/repos/acme/api/pulls/7/merge?note=%C3%A9", mergeBody,
                    "Content-Type", "application/json", "X-Request-Id", marker);
            responses.add(held.raw());
            assertThat(held.status()).as(held.raw()).isEqualTo(403);
            assertThat(held.json().get("ok").booleanValue()).isFalse();
            assertThat(held.text("error")).isEqualTo("Held for approval by the gateway");
            assertThat(held.text("message")).startsWith("Held for approval by the gateway: approval ");
            assertThat(held.text("decision")).isEqualTo("require_approval");
            String approvalId = held.text("approvalRequestId");
            assertThat(held.text("statusUrl")).isEqualTo("/functions/v1/mcp-gate/status/" + approvalId);
            assertThat(upstream.requestsTo(base + "/repos/acme/api/pulls/7/merge")).isEmpty();

            await().atMost(PROJECTED).until(() -> status(ws, approvalId), r -> r.status() == 200);
            var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                    ws.ownerJwt(), Map.of("reason", "merge window"));
            assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
            JsonNode executed = await().atMost(PROJECTED).until(() -> status(ws, approvalId),
                    r -> r.status() == 200 && "executed".equals(r.text("status"))).body();
            responses.add(executed.toString());
            assertThat(executed.at("/executionResult/httpStatus").intValue()).isEqualTo(200);
            assertThat(executed.at("/executionResult/content/0/text").asString())
                    .isEqualTo("{\"done\":\"" + base + "/repos/acme/api/pulls/7/merge\"}");

            List<ProxyUpstream.Request> sent = upstream.requestsTo(base + "/repos/acme/api/pulls/7/merge");
            assertThat(sent).hasSize(1);
            assertThat(sent.get(0).method()).isEqualTo("PUT");
            assertThat(sent.get(0).rawQuery()).isEqualTo("note=%C3%A9");
            assertThat(sent.get(0).body()).isEqualTo(mergeBody);
            assertThat(sent.get(0).header("Authorization")).as("the executor sends with the connection's token").isEqualTo("token " + token);
            assertThat(sent.get(0).header("User-agent")).isEqualTo("service/1.0");
            assertThat(sent.get(0).header("X-request-id")).isEqualTo(marker);
            assertThat(sent.get(0).headers()).doesNotContainKey("X-agent-id");

            assertThat(killSwitchPause(ws).status()).isEqualTo(200);
            Answer paused = proxy(ws, "GET", "code_host", "/repos/acme/api", new byte[0]);
            responses.add(paused.raw());
            assertThat(paused.status()).isEqualTo(403);
            assertThat(paused.text("decision")).isEqualTo("block");
            assertThat(upstream.requestsTo(base + "/repos/acme/api").stream().filter(r -> r.rawPath().equals(base + "/repos/acme/api")))
                    .isEmpty();
            logged = logs.lines();
        }
        assertThat(responses).allSatisfy(body -> assertThat(body).doesNotContain(token));
        assertThat(logged).isNotEmpty();
        assertThat(logged).allSatisfy(line -> assertThat(line).doesNotContain(token));
    }

    // --- refusals and upstream failures -------------------------------------------------------------------------------

    @Test
    void refusalsAndUpstreamFailuresAreClearJsonErrors() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();

        // the proxy checks the key in the read model: a key issued a moment ago is 401 until projected
        Answer noConnection = await().atMost(PROJECTED).until(() -> proxy(ws, "GET", "code_host", "/repos/acme/api", new byte[0]),
                answer -> answer.status() != 401);
        assertThat(noConnection.status()).isEqualTo(409);
        assertThat(noConnection.text("error")).isEqualTo(
                "No code_host connection is configured for this workspace; an admin connects it under tool settings");

        connect(ws, "issue_tracker", Map.of("base_url", upstream.baseUrl() + "/lin"));
        Answer noToken = proxy(ws, "POST", "issue_tracker", "/graphql", "{\"query\":\"{ viewer { id } }\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(noToken.status()).isEqualTo(409);
        assertThat(noToken.text("error")).isEqualTo("The issue_tracker connection has no access token; an admin connects it (OAuth) first");

        assertThat(proxy(ws, "GET", "mcp", "/tools", new byte[0]).status()).isEqualTo(404);
        assertThat(proxy(ws, "GET", "nope", "/x", new byte[0]).status()).isEqualTo(404);
        Answer badKey = send("GET", "/functions/v1/gateway-proxy/code_host/repos/a/b", "agk_nonsense", new byte[0]);
        assertThat(badKey.status()).isEqualTo(401);
        assertThat(badKey.text("error")).isEqualTo("Invalid or expired API key");
        Answer dotted = proxy(ws, "DELETE", "code_host", "/repos/acme/api/issues/%2e%2e/contents/x", new byte[0]);
        assertThat(dotted.status()).isEqualTo(400);

        String evaluateOnly = issueKey(ws, List.of("evaluate"));
        Answer wrongScope = send("GET", "/functions/v1/gateway-proxy/internal_api/deployments", evaluateOnly, new byte[0]);
        assertThat(wrongScope.status()).isEqualTo(401);

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        connect(ws, "docs", Map.of("base_url", "http://127.0.0.1:" + closedPort));
        Answer unreachable = proxy(ws, "GET", "docs", "/pages/1", new byte[0]);
        assertThat(unreachable.status()).isEqualTo(502);
        assertThat(unreachable.text("error")).isEqualTo("The docs upstream could not be reached");
        assertThat(unreachable.text("correlationId")).isEqualTo(unreachable.header("X-Correlation-Id"));

        connect(ws, "internal_api", Map.of("base_url", upstream.baseUrl() + "/int"));
        long start = System.nanoTime();
        Answer slow = proxy(ws, "GET", "internal_api", "/slow/report", new byte[0]);
        assertThat(slow.status()).isEqualTo(504);
        assertThat(slow.text("error")).isEqualTo("The internal_api upstream did not answer within 1000 ms");
        assertThat(slow.text("correlationId")).isEqualTo(slow.header("X-Correlation-Id"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(ProxyUpstream.SLOW_MILLIS));

        Answer deleted = proxy(ws, "DELETE", "internal_api", "/deployments/9", new byte[0]);
        assertThat(deleted.status()).as("internal_api DELETE defaults to high: held").isEqualTo(403);
        assertThat(deleted.text("decision")).isEqualTo("require_approval");
        Answer written = proxy(ws, "POST", "internal_api", "/deployments", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(written.status()).as("other writes default to medium: allowed").isEqualTo(200);
        assertThat(upstream.requestsTo("/int/deployments")).extracting(ProxyUpstream.Request::method).containsExactly("POST");

        // a connected tool: the decision stream refuses a key without the proxy scope, and nothing is sent
        Answer connectedWrongScope = send("GET", "/functions/v1/gateway-proxy/internal_api/deployments", evaluateOnly, new byte[0]);
        assertThat(connectedWrongScope.status()).isEqualTo(401);
        assertThat(connectedWrongScope.text("error")).isEqualTo("Invalid or expired API key");
        String unknownKey = ApiKeys.generate(UUID.fromString(ws.id()));
        Answer connectedUnknownKey = send("GET", "/functions/v1/gateway-proxy/internal_api/deployments", unknownKey, new byte[0]);
        assertThat(connectedUnknownKey.status()).isEqualTo(401);
        Answer unconnectedUnknownKey = send("GET", "/functions/v1/gateway-proxy/chat/channels", unknownKey, new byte[0]);
        assertThat(unconnectedUnknownKey.status()).as("no 409: an unknown key learns nothing of the connections").isEqualTo(401);
        assertThat(upstream.requestsTo("/int/deployments")).extracting(ProxyUpstream.Request::method).containsExactly("POST");
    }

    // --- chat, docs and internal_api: the connection's classification rules ------------------------------------------

    @Test
    void aChatConnectionsRulesClassifyItsRequestsAndTheRestGetTheSafeDefaults() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        List<Map<String, String>> rules = List.of(
                Map.of("method", "POST", "path", "/channels/*/messages", "action", "message.send", "risk", "low"),
                Map.of("method", "*", "path", "/admin/**", "action", "admin.call", "risk", "critical"));
        connect(ws, "chat", Map.of("base_url", upstream.baseUrl() + "/chat", "config", Map.of("rules", rules)));
        String path = "/admin/v1/workspaces/" + ws.id() + "/tools/chat";
        var shown = client().send("GET", path, ws.ownerJwt(), null);
        assertThat(shown.body().at("/config/rules/0/action").asString()).isEqualTo("message.send");
        assertThat(shown.body().at("/config/rules/1/risk").asString()).isEqualTo("critical");

        byte[] message = "{\"text\":\"hello\"}".getBytes(StandardCharsets.UTF_8);
        Answer sent = await().atMost(PROJECTED).until(() -> proxy(ws, "POST", "chat", "/channels/x/messages", message),
                answer -> answer.status() != 401);
        assertThat(sent.status()).as(sent.raw()).isEqualTo(200);
        Map<String, String> sentAudit = auditRow(sent.header("X-Correlation-Id"));
        assertThat(sentAudit).containsEntry("action", "message.send").containsEntry("risk_level", "low")
                .containsEntry("decision", "allow").containsEntry("source", "proxy");
        assertThat(arrivals("/chat/channels/x/messages", "POST")).isEqualTo(1);

        Answer admin = proxy(ws, "POST", "chat", "/admin/users/7/ban", new byte[0]);
        assertThat(admin.status()).as("critical is blocked by the built-in defaults").isEqualTo(403);
        assertThat(admin.text("decision")).isEqualTo("block");
        Map<String, String> adminAudit = auditRow(admin.header("X-Correlation-Id"));
        assertThat(adminAudit).containsEntry("action", "admin.call").containsEntry("risk_level", "critical")
                .containsEntry("decision", "block");
        assertThat(upstream.requestsTo("/chat/admin")).as("a blocked call never leaves").isEmpty();

        Answer unmatched = proxy(ws, "DELETE", "chat", "/channels/C024BE91L", new byte[0]);
        assertThat(unmatched.status()).as("no rule: DELETE defaults to high, held").isEqualTo(403);
        assertThat(unmatched.text("decision")).isEqualTo("require_approval");
        assertThat(auditRow(unmatched.header("X-Correlation-Id"))).containsEntry("action", "channels.delete")
                .containsEntry("risk_level", "high");
    }

    // --- helpers -------------------------------------------------------------------------------------------------------

    private static long arrivals(String exactPath, String method) {
        return upstream.requestsTo(exactPath).stream()
                .filter(r -> r.rawPath().equals(exactPath) && r.method().equals(method)).count();
    }

    private static String token() {
        return "ghp_" + UUID.randomUUID().toString().replace("-", "");
    }

    private static Answer proxy(TestWorkspace ws, String method, String tool, String pathAndQuery, byte[] body, String... headers)
            throws Exception {
        return send(method, "/functions/v1/gateway-proxy/" + tool + pathAndQuery, ws.apiKey(), body, headers);
    }

    private static Answer send(String method, String path, String key, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("X-Agent-Id", AGENT_ID)
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(response.statusCode(), response.headers(), response.body());
    }

    /** Creates or replaces the connection and waits until the read side serves it. */
    private static void connect(TestWorkspace ws, String tool, Map<String, Object> body) {
        ProxyTestSupport.connect(ws, tool, body);
    }

    private static GatewayHttpClient.Response status(TestWorkspace ws, String approvalId) {
        return client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
    }

    private static GatewayHttpClient.Response killSwitchPause(TestWorkspace ws) {
        return GatewayHarness.killSwitch(ws, "pause_tool", "code_host");
    }

    private static String issueKey(TestWorkspace ws, List<String> scopes) {
        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "narrow", "scopes", scopes));
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        String keyId = issued.text("keyId");
        await().atMost(PROJECTED).until(() -> client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(), null)
                .rawBody().contains(keyId));
        return issued.text("key");
    }

    /** The projected audit row of a request, by its correlation id. */
    private static Map<String, String> auditRow(String correlationId) {
        return await().atMost(PROJECTED).until(() -> {
            try (Connection db = GatewayHarness.db();
                 PreparedStatement query = db.prepareStatement(
                         "select action, risk_level, risk_classification, source, agent_id, decision from audit_log where correlation_id = ?")) {
                query.setString(1, correlationId);
                try (ResultSet rs = query.executeQuery()) {
                    if (!rs.next()) {
                        return null;
                    }
                    Map<String, String> row = new LinkedHashMap<>();
                    for (String column : List.of("action", "risk_level", "risk_classification", "source", "agent_id", "decision")) {
                        row.put(column, rs.getString(column));
                    }
                    return row;
                }
            }
        }, row -> row != null);
    }
}
