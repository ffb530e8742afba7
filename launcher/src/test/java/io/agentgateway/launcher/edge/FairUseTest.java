package io.agentgateway.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.EdgeReplica;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.schemas.GatewayJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14, finding 4, on {@link EdgeReplica} (per key 2/s with a burst of 5, per workspace 3/s with a burst
 * of 8; 2 MCP event streams per key and 3 per workspace, idle after 3 s; batches of at most 5): a key, a
 * workspace and a batch get their share and then 429 with Retry-After, made-up keys cannot use up a
 * workspace's share, and one key can no longer take every event-stream slot or keep a stream for ever.
 */
class FairUseTest {
    private static final String GATE = McpGateClients.GATE;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aKeyGetsItsBurstThenA429WithRetryAfterAndItsShareBackAfterIt() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        // at once: the bucket refills 2 per second, and one by one the requests would take a while on a busy machine
        GatewayHttpClient client = EdgeReplica.client();
        List<GatewayHttpClient.Response> answers = IntStream.range(0, 12)
                .mapToObj(i -> client.sendAsync("POST", "/functions/v1/evaluate-action", ws.apiKey(), actionJson())).toList()
                .stream().map(java.util.concurrent.CompletableFuture::join).toList();

        List<Integer> statuses = answers.stream().map(GatewayHttpClient.Response::status).toList();
        assertThat(statuses.stream().filter(s -> s == 200).count()).as(statuses.toString()).isBetween(5L, 6L);
        GatewayHttpClient.Response limited = answers.stream().filter(a -> a.status() == 429).findFirst().orElseThrow();
        assertThat(limited.text("error")).isEqualTo("Too many requests for this API key; retry later");
        assertThat(limited.text("correlationId")).isNotBlank();
        HttpResponse<String> raw = send(HttpRequest.newBuilder(URI.create(EdgeReplica.baseUrl() + "/functions/v1/evaluate-action"))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(actionJson())));
        if (raw.statusCode() == 429) {
            assertThat(Integer.parseInt(raw.headers().firstValue("Retry-After").orElseThrow())).isBetween(1, 2);
        }
        // 2 per second come back
        await().atMost(Duration.ofSeconds(5)).until(() -> evaluate(ws.apiKey()).status() == 200);
    }

    @Test
    void aKeyInTheFormsOfTheToolsOwnSdksIsChargedAsABearerKeyIsAndTheLimitSpeaksTheToolsDialect() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        GatewayHttpClient client = EdgeReplica.client();
        // issue 16: octokit's "token agk_…" on the code host's path, the Linear SDK's bare key on the issue tracker's
        for (String[] form : new String[][] {{"token " + ws.apiKey(), "code_host/repos/acme/api/issues"},
                {ws.apiKey(), "issue_tracker/graphql"}}) {
            List<GatewayHttpClient.Response> answers = IntStream.range(0, 12)
                    .mapToObj(i -> client.sendAsync("GET", "/functions/v1/gateway-proxy/" + form[1], null, null,
                            Map.of("Authorization", form[0]))).toList()
                    .stream().map(java.util.concurrent.CompletableFuture::join).toList();
            List<Integer> statuses = answers.stream().map(GatewayHttpClient.Response::status).toList();
            GatewayHttpClient.Response limited = answers.stream().filter(a -> a.status() == 429).findFirst()
                    .orElseThrow(() -> new AssertionError(form[1] + ": no 429 in " + statuses));
            assertThat(limited.text("error")).isEqualTo("Too many requests for this API key; retry later");
            if (form[1].startsWith("code_host")) {
                assertThat(limited.text("message")).isEqualTo("Too many requests for this API key; retry later");
            } else {
                assertThat(limited.body().at("/errors/0/extensions/type").asString()).isEqualTo("ratelimited");
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> evaluate(ws.apiKey()).status() == 200);
        }
    }

    @Test
    void theKeysOfAWorkspaceShareItsLimitAndMadeUpKeysCannotUseItUp() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        UUID workspace = UUID.fromString(ws.id());
        // 40 requests with well-formed keys nobody issued, naming the workspace: each its own bucket, none the workspace's
        for (int i = 0; i < 40; i++) {
            assertThat(evaluate(ApiKeys.generate(workspace)).status()).isEqualTo(401);
        }
        assertThat(evaluate(ws.apiKey()).status()).as("the real key was not locked out").isEqualTo(200);

        List<String> keys = new ArrayList<>(List.of(ws.apiKey(), issueKey(ws, "evaluate"), issueKey(ws, "evaluate")));
        keys.subList(1, 3).forEach(key -> assertThat(evaluate(key).status()).isEqualTo(200));
        // three keys of 5 each, but the workspace holds 8 at once
        GatewayHttpClient client = EdgeReplica.client();
        List<GatewayHttpClient.Response> answers = IntStream.range(0, 12)
                .mapToObj(i -> client.sendAsync("POST", "/functions/v1/evaluate-action", keys.get(i % 3), actionJson())).toList()
                .stream().map(java.util.concurrent.CompletableFuture::join).toList();
        assertThat(answers.stream().map(a -> a.text("error")).toList())
                .contains("Too many requests for this workspace; retry later");
    }

    @Test
    void aBatchCountsEachOfItsMessagesAndALargerBatchIsRefusedWhole() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        awaitKeyProjected(ws.apiKey());
        await().atMost(Duration.ofSeconds(5)).until(() -> post(ws.apiKey(), pings(1)).statusCode() == 200);

        HttpResponse<String> tooLarge = post(ws.apiKey(), pings(6));
        JsonNode refused = GatewayJson.MAPPER.readTree(tooLarge.body());
        assertThat(tooLarge.statusCode()).isEqualTo(200);
        assertThat(refused.isObject()).as("one answer for the whole batch: " + refused).isTrue();
        assertThat(refused.at("/error/code").intValue()).isEqualTo(-32600);
        assertThat(refused.at("/error/message").asString()).isEqualTo("Invalid request: a batch may hold at most 5 messages");

        // a fresh key: 5 messages in one batch take its whole burst of 5
        String key = issueKey(ws, "mcp");
        awaitKeyProjected(key);
        await().atMost(Duration.ofSeconds(5)).until(() -> post(key, pings(5)).statusCode() == 200);
        HttpResponse<String> next = post(key, pings(1));
        assertThat(next.statusCode()).isEqualTo(429);
        assertThat(next.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void aKeyAndAWorkspaceHoldOnlyTheirShareOfEventStreamsAndAnIdleStreamIsClosed() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String other = issueKey(ws, "mcp");
        awaitKeyProjected(ws.apiKey());
        awaitKeyProjected(other);
        List<HttpResponse<InputStream>> open = new ArrayList<>();
        try {
            open.add(openStream(ws.apiKey()));
            open.add(openStream(ws.apiKey()));
            assertThat(open).allMatch(r -> r.statusCode() == 200);
            HttpResponse<InputStream> third = openStream(ws.apiKey());
            assertThat(third.statusCode()).isEqualTo(429);
            assertThat(text(third)).contains("Too many MCP event streams open for this API key");
            HttpResponse<InputStream> otherKey = openStream(other);
            open.add(otherKey);
            assertThat(otherKey.statusCode()).isEqualTo(200);
            HttpResponse<InputStream> overWorkspace = openStream(other);
            assertThat(overWorkspace.statusCode()).isEqualTo(429);
            assertThat(text(overWorkspace)).contains("Too many MCP event streams open for this workspace");

            // nobody posts on them: after gateway.mcp.sse-idle-timeout (3 s) each stream ends, and the slots are free
            long started = System.nanoTime();
            for (HttpResponse<InputStream> stream : open) {
                assertThat(readToEnd(stream)).startsWith("event:endpoint");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            HttpResponse<InputStream> again = openStream(ws.apiKey());
            open.add(again);
            assertThat(again.statusCode()).isEqualTo(200);
        } finally {
            for (HttpResponse<InputStream> stream : open) {
                stream.body().close();
            }
        }
    }

    private static GatewayHttpClient.Response evaluate(String key) {
        return EdgeReplica.client().send("POST", "/functions/v1/evaluate-action", key, actionJson());
    }

    private static String actionJson() {
        return "{\"tool\":\"docs\",\"action\":\"page.read\",\"riskLevel\":\"low\",\"agentId\":\"fair-use\"}";
    }

    private static String issueKey(TestWorkspace ws, String scope) {
        var issued = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "extra " + UUID.randomUUID(), "scopes", List.of(scope)));
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        return issued.text("key");
    }

    /** Endpoints other than evaluate-action read keys from the read model: wait for the projector. */
    private static void awaitKeyProjected(String key) {
        await().atMost(Duration.ofSeconds(20)).until(() -> GatewayHarness.client()
                .send("GET", "/functions/v1/mcp-gate/status/" + UUID.randomUUID(), key, null).status() == 404);
    }

    private static String pings(int n) {
        return IntStream.range(0, n).mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}")
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static HttpResponse<String> post(String key, String body) {
        return send(HttpRequest.newBuilder(URI.create(EdgeReplica.baseUrl() + GATE))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<InputStream> openStream(String key) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(EdgeReplica.baseUrl() + GATE))
                .header("Authorization", "Bearer " + key).header("Accept", "text/event-stream").timeout(Duration.ofSeconds(20))
                .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private static String text(HttpResponse<InputStream> response) throws IOException {
        try (InputStream in = response.body()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The stream's lines without blanks and spaces, read until the server ends it. */
    private static String readToEnd(HttpResponse<InputStream> stream) throws IOException {
        StringBuilder lines = new StringBuilder();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.append(line.replace(" ", "")).append('\n');
            }
        }
        return lines.toString();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
