package io.agentgateway.ingressapi.httpedge;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every endpoint shares: JSON errors, correlation ids, health. */
class HttpEdgeTest {
    private static final RunningIngress ingress = SharedIngress.ingress();

    @Test
    void anUnknownPathIsA404JsonError() {
        TestHttp.Response response = ingress.http.get("/functions/v1/no-such-function").send();

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.headers().first("Content-Type")).startsWith("application/json");
        assertThat(response.json().get("ok").booleanValue()).isFalse();
        assertThat(response.error()).isEqualTo("Not found");
        assertThat(response.json().get("correlationId").asString()).isEqualTo(response.headers().first("X-Correlation-Id"));
    }

    @Test
    void aUuidCorrelationIdIsEchoedAndAnythingElseReplaced() {
        String mine = UUID.randomUUID().toString();

        TestHttp.Response echoed = ingress.http.get("/nowhere").header("X-Correlation-Id", mine).send();
        TestHttp.Response replaced = ingress.http.get("/nowhere").header("X-Correlation-Id", "<script>").send();
        TestHttp.Response generated = ingress.http.get("/nowhere").send();

        assertThat(echoed.headers().first("X-Correlation-Id")).isEqualTo(mine);
        assertThat(echoed.json().get("correlationId").asString()).isEqualTo(mine);
        assertThat(replaced.headers().first("X-Correlation-Id")).isNotEqualTo("<script>").matches("[0-9a-f-]{36}");
        assertThat(generated.headers().first("X-Correlation-Id")).matches("[0-9a-f-]{36}");
    }

    /**
     * An error answered before the request was read to its end (a missing Authorization header is
     * refused before the body) must not stall the next request on the same keep-alive connection.
     * Before the error handler drained the request, about one in fifty such follow-ups hung.
     */
    @Test
    void anEarlyErrorNeverStallsTheNextRequestOnTheSameConnection() throws Exception {
        String port = ingress.context.getEnvironment().getProperty("local.server.port");
        URI members = URI.create("http://127.0.0.1:" + port + "/admin/v1/workspaces/" + UUID.randomUUID() + "/members");
        String stranger = TestTokens.user("stranger");
        // one connection: HTTP/1.1 and sequential requests make the client reuse it
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 300; i++) {
            HttpResponse<String> refused = client.send(HttpRequest.newBuilder(members).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);
            // answered after a database read, off the event loop
            HttpResponse<String> next = client.send(HttpRequest.newBuilder(members).timeout(Duration.ofSeconds(3))
                    .header("Authorization", "Bearer " + stranger).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(next.statusCode()).isEqualTo(403);
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIs413() throws Exception {
        // no Content-Length: the limit must hold while reading
        byte[] body = ("{\"tool\":\"mcp\",\"action\":\"a.b\",\"riskLevel\":\"low\",\"payload\":{\"x\":\"" + "y".repeat(8000) + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
        String url = ingress.context.getEnvironment().getProperty("local.server.port");
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + url + "/functions/v1/evaluate-action"))
                .header("Authorization", "Bearer " + ApiKeys.generate(UUID.randomUUID()))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();

        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).contains("\"error\":\"Request body too large\"");
    }

    @Test
    void healthIsUpOnceTheGatewayIsReadyOnTheManagementPortAndTheApiPortHasNoActuator() {
        TestHttp.Response response = ingress.management().get("/actuator/health").send();
        TestHttp.Response readiness = ingress.management().get("/actuator/health/readiness").send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("UP");
        assertThat(readiness.status()).isEqualTo(200);
        assertThat(readiness.json().get("status").asString()).isEqualTo("UP");
        for (String path : List.of("/actuator/health", "/actuator/metrics", "/actuator/prometheus", "/actuator")) {
            TestHttp.Response onTheApi = ingress.http.get(path).send();
            assertThat(onTheApi.status()).as(path).isEqualTo(404);
            assertThat(onTheApi.json().get("ok").asBoolean()).isFalse();
        }
    }

    /** What a load balancer asks: a replica whose reply partition is not there cannot have anything decided. */
    @Test
    void readinessIsDownWhileTheGatewayCannotReceiveReplies() {
        try (RunningIngress notReady = RunningIngress.start(SharedTestInfra.kafka().bootstrapServers(), TestDatabase.create(),
                Map.of("gateway.ingress.reply-partition", "99"), false)) {
            TestHttp.Response readiness = notReady.management().get("/actuator/health/readiness").send();

            assertThat(readiness.status()).isEqualTo(503);
            assertThat(readiness.json().get("status").asString()).isEqualTo("DOWN");
        }
    }
}
