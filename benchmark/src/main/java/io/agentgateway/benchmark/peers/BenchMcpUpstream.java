package io.agentgateway.benchmark.peers;

import io.agentgateway.benchmark.McpGateBenchmark;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The upstream of {@link McpGateBenchmark}: an MCP server built with the official Java SDK (an async
 * server, streamable HTTP at {@code /mcp}) on the SDK's WebFlux transport over Reactor Netty, on an
 * event loop of its own, with a tool, {@code list_repos}, that answers a short text at once (and {@code read_big_file}, 1 MB), so
 * the numbers are the transport's and the gate's, not the tool's; {@code delete_repo} (held for an approval by the
 * workspace's defaults: its name says high risk) records when it received each call ({@link #receivedAt}, for
 * {@link McpTaskWaitBenchmark}). It shares the two cores with the gateway (the target counts the upstream in), so it
 * is built to cost little per call: the same
 * SDK server on an embedded Tomcat (with the SDK's JDK HttpClient client) cost about 2.5 times the
 * CPU per call.
 */
public final class BenchMcpUpstream implements AutoCloseable {
    public static final String TOOL = "list_repos";
    /** Answers a text of {@link #BIG_BYTES} (results over 256 KiB once hung in the gate). */
    public static final String BIG_TOOL = "read_big_file";
    public static final int BIG_BYTES = 1024 * 1024;
    /** Records when it received each call, by its {@code marker} argument. */
    public static final String HELD_TOOL = "delete_repo";
    private static final String BIG_TEXT = "x".repeat(BIG_BYTES);

    private final LoopResources loop;
    private final DisposableServer http;
    private final McpAsyncServer server;
    private final Map<String, Long> received;

    private BenchMcpUpstream(LoopResources loop, DisposableServer http, McpAsyncServer server, Map<String, Long> received) {
        this.loop = loop;
        this.http = http;
        this.server = server;
        this.received = received;
    }

    public static BenchMcpUpstream start() {
        Map<String, Long> received = new ConcurrentHashMap<>();
        var transport = WebFluxStreamableServerTransportProvider.builder().messageEndpoint("/mcp").build();
        McpAsyncServer server = McpServer.async(transport).serverInfo("bench-upstream", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(AsyncToolSpecification.builder()
                        .tool(McpSchema.Tool.builder().name(TOOL).description("lists repositories")
                                .inputSchema(Map.of("type", "object")).build())
                        .callHandler((exchange, request) -> Mono.just(McpSchema.CallToolResult.builder()
                                .addTextContent("repo-a, repo-b").isError(false).build()))
                        .build(),
                        AsyncToolSpecification.builder()
                        .tool(McpSchema.Tool.builder().name(BIG_TOOL).description("reads a 1 MB file")
                                .inputSchema(Map.of("type", "object")).build())
                        .callHandler((exchange, request) -> Mono.just(McpSchema.CallToolResult.builder()
                                .addTextContent(BIG_TEXT).isError(false).build()))
                        .build(),
                        AsyncToolSpecification.builder()
                        .tool(McpSchema.Tool.builder().name(HELD_TOOL).description("deletes a repository")
                                .inputSchema(Map.of("type", "object")).build())
                        .callHandler((exchange, request) -> {
                            long now = System.nanoTime();
                            Object marker = request.arguments() == null ? null : request.arguments().get("marker");
                            received.put(String.valueOf(marker), now);
                            return Mono.just(McpSchema.CallToolResult.builder().addTextContent("deleted " + marker)
                                    .isError(false).build());
                        })
                        .build())
                .build();
        LoopResources loop = LoopResources.create("bench-mcp-upstream", 1, true);
        DisposableServer http = HttpServer.create().host("127.0.0.1").port(0).runOn(loop)
                .handle(new ReactorHttpHandlerAdapter(RouterFunctions.toHttpHandler(transport.getRouterFunction())))
                .bindNow(Duration.ofSeconds(10));
        return new BenchMcpUpstream(loop, http, server, received);
    }

    /** When (System.nanoTime) it received the {@link #HELD_TOOL} call with this marker; null before. */
    public Long receivedAt(String marker) {
        return received.get(marker);
    }

    public String url() {
        return "http://127.0.0.1:" + http.port() + "/mcp";
    }

    @Override
    public void close() {
        server.closeGracefully().block(Duration.ofSeconds(5));
        http.disposeNow(Duration.ofSeconds(5));
        loop.dispose();
    }
}
