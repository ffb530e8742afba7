package io.agentgateway.approvalexecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldHttpRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.ReactorResourceFactory;
import tools.jackson.databind.JsonNode;

/** The HTTP runner against a real HTTP server in this JVM (the JDK's): one request, exactly as held. */
class HttpHeldCallRunnerTest {
    private static final HeldCallContext CONTEXT =
            new HeldCallContext("ws-1", "approval-1", Tool.INTERNAL_API, "deploy.run", "corr-1", null);

    /** What the upstream received. */
    record Received(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body) {}

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private HttpServer upstream;
    private ReactorResourceFactory resources;
    private volatile int status = 201;
    private volatile byte[] responseBody = "{\"deployed\":true}".getBytes(StandardCharsets.UTF_8);
    private volatile long delayMillis;

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            sleep(delayMillis);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, responseBody.length == 0 ? -1 : responseBody.length);
            exchange.getResponseBody().write(responseBody);
            exchange.close();
        });
        upstream.start();
        resources = new ReactorResourceFactory();
        resources.setUseGlobalResources(false);
        resources.afterPropertiesSet();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
        resources.destroy();
    }

    private HttpHeldCallRunner runner(Optional<UpstreamTarget> target, Duration timeout, int maxResultBytes) {
        ExecutorProperties properties = new ExecutorProperties(true, "group", 1, Duration.ofSeconds(1), 1, timeout,
                maxResultBytes, Duration.ofSeconds(6), Map.of());
        return new HttpHeldCallRunner(resources, context -> target, properties,
                EgressClients.of(List.of("127.0.0.0/8"), List.of(), "gw-test"));
    }

    private HttpHeldCallRunner runner() {
        return runner(Optional.of(new UpstreamTarget(URI.create(baseUrl() + "/api/"), Map.of("Authorization", "token upstream-secret"))),
                Duration.ofSeconds(5), 65536);
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + upstream.getAddress().getPort();
    }

    private static HeldHttpRequest request(String method, String body) {
        return new HeldHttpRequest(method, "/repos/acme/api/pulls/7/merge%20now", "dry_run=false&note=%C3%A9",
                Map.of("content-type", List.of("application/json"), "x-trace", List.of("a", "b"),
                        "authorization", List.of("Bearer agk_agent_key"), "host", List.of("evil.example"),
                        "connection", List.of("close")),
                body == null ? null : Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void sendsTheHeldRequestOnceExactlyAsHeldAndReportsTheAnswer() {
        JsonNode result = runner().run(CONTEXT, request("PUT", "{\"merge_method\":\"squash\"}")).block();

        assertThat(received).hasSize(1);
        Received got = received.get(0);
        assertThat(got.method()).isEqualTo("PUT");
        assertThat(got.rawPath()).as("the base path, then the held path as sent, not re-encoded")
                .isEqualTo("/api/repos/acme/api/pulls/7/merge%20now");
        assertThat(got.rawQuery()).isEqualTo("dry_run=false&note=%C3%A9");
        assertThat(got.body()).isEqualTo("{\"merge_method\":\"squash\"}");
        assertThat(got.headers().get("Content-type")).containsExactly("application/json");
        assertThat(got.headers().get("X-trace")).containsExactly("a", "b");
        assertThat(got.headers().get("Authorization")).as("the gateway's credential replaces the agent's")
                .containsExactly("token upstream-secret");
        assertThat(got.headers().get("Host")).containsExactly("127.0.0.1:" + upstream.getAddress().getPort());
        assertThat(got.headers().get("X-agent-gateway-hop")).as("the hop marker").containsExactly("gw-test");

        assertThat(result.get("content").get(0).get("type").asString()).isEqualTo("text");
        assertThat(result.get("content").get(0).get("text").asString()).isEqualTo("{\"deployed\":true}");
        assertThat(result.get("isError").booleanValue()).isFalse();
        assertThat(result.get("httpStatus").intValue()).isEqualTo(201);
        assertThat(result.get("contentType").asString()).isEqualTo("application/json");
        assertThat(result.get("truncated").booleanValue()).isFalse();
    }

    @Test
    void anApprovedCallKeepsTheAgentsOwnFormatOfTheCodeHostsMediaTypeAndGetsTheDefaultOtherwise() {
        UpstreamTarget codeHost = new UpstreamTarget(URI.create(baseUrl() + "/api/"),
                Map.of("Authorization", "token upstream-secret", "Accept", "application/vnd.github.v3+json"));
        HttpHeldCallRunner runner = runner(Optional.of(codeHost), Duration.ofSeconds(5), 65536);
        for (String accept : List.of("application/vnd.github.v3.diff", "application/json")) {
            HeldHttpRequest held = new HeldHttpRequest("GET", "/repos/acme/api/pulls/7", null,
                    Map.of("accept", List.of(accept)), null);
            runner.run(CONTEXT, held).block();
        }
        assertThat(received).extracting(got -> got.headers().get("Accept"))
                .containsExactly(List.of("application/vnd.github.v3.diff"), List.of("application/vnd.github.v3+json"));
    }

    @Test
    void aBodylessRequestSendsNoBody() {
        status = 204;
        responseBody = new byte[0];
        JsonNode result = runner().run(CONTEXT, request("DELETE", null)).block();

        assertThat(received).singleElement().satisfies(got -> {
            assertThat(got.method()).isEqualTo("DELETE");
            assertThat(got.body()).isEmpty();
        });
        assertThat(result.get("httpStatus").intValue()).isEqualTo(204);
        assertThat(result.get("content").get(0).get("text").asString()).isEmpty();
    }

    @Test
    void anUpstreamErrorIsAnAnswerMarkedAsErrorAndALongBodyIsCut() {
        status = 503;
        responseBody = ("a\u0000" + "é".repeat(100)).getBytes(StandardCharsets.UTF_8);
        JsonNode result = runner(Optional.of(new UpstreamTarget(URI.create(baseUrl()), Map.of())), Duration.ofSeconds(5), 51)
                .run(CONTEXT, request("POST", "{}")).block();

        assertThat(received).hasSize(1);
        assertThat(result.get("isError").booleanValue()).isTrue();
        assertThat(result.get("httpStatus").intValue()).isEqualTo(503);
        assertThat(result.get("truncated").booleanValue()).isTrue();
        assertThat(result.get("content").get(0).get("text").asString())
                .as("NUL replaced (jsonb cannot store it), cut at 51 bytes, the cut character replaced")
                .startsWith("a\uFFFDéé").hasSize(2 + 24 + 1).endsWith("é\uFFFD");
    }

    @Test
    void anAddressTheEgressPolicyRefusesIsNeverConnectedTo() {
        ExecutorProperties properties = new ExecutorProperties(true, "group", 1, Duration.ofSeconds(1), 1, Duration.ofSeconds(5),
                65536, Duration.ofSeconds(6), Map.of());
        HttpHeldCallRunner publicOnly = new HttpHeldCallRunner(resources,
                context -> Optional.of(new UpstreamTarget(URI.create(baseUrl() + "/api/"), Map.of())), properties,
                EgressClients.of(List.of(), List.of(), "gw-test"));

        assertThatThrownBy(() -> publicOnly.run(CONTEXT, request("PUT", "{}")).block())
                .satisfies(e -> assertThat(io.agentgateway.egress.EgressRefusedException.in(e)).isNotNull());
        assertThat(received).isEmpty();
    }

    @Test
    void noAnswerInTimeIsAFailureAndTheRequestIsNotSentAgain() {
        delayMillis = 1500;
        HttpHeldCallRunner slow = runner(Optional.of(new UpstreamTarget(URI.create(baseUrl()), Map.of())),
                Duration.ofMillis(300), 1024);

        assertThatThrownBy(() -> slow.run(CONTEXT, request("POST", "{}")).block()).isInstanceOf(RuntimeException.class);
        sleep(1800);
        assertThat(received).hasSize(1);
    }

    @Test
    void aRefusedConnectionOrAMissingUpstreamIsAFailure() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        HttpHeldCallRunner nowhere = runner(Optional.of(new UpstreamTarget(URI.create("http://127.0.0.1:" + closedPort), Map.of())),
                Duration.ofSeconds(5), 1024);
        assertThatThrownBy(() -> nowhere.run(CONTEXT, request("POST", "{}")).block()).isInstanceOf(RuntimeException.class);

        assertThatThrownBy(() -> runner(Optional.empty(), Duration.ofSeconds(5), 1024).run(CONTEXT, request("POST", "{}")).block())
                .hasMessage("no upstream is configured for the tool internal_api");
        assertThat(received).isEmpty();
    }

    @Test
    void aPathThatLeavesTheBaseUrlIsRefused() {
        HeldHttpRequest sneaky = new HeldHttpRequest("GET", "//evil.example/x", null, Map.of(), null);
        assertThatThrownBy(() -> runner().run(CONTEXT, sneaky).block()).isInstanceOf(IllegalArgumentException.class);
        assertThat(received).isEmpty();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
