package io.agentgateway.mcpgate;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.mcp.server.webflux.transport.WebFluxStreamableServerTransportProvider;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A workspace's upstream MCP server for the gate's tests, a real protocol peer: the official SDK's server over its
 * streamable HTTP transport at {@code /mcp}, with the tools {@code delete_repo} and {@code list_repos}, each answering
 * a text naming the call's {@code marker} argument. It records the calls it ran.
 */
public final class McpTestUpstream implements AutoCloseable {
    private final DisposableServer http;
    private final McpAsyncServer server;
    private final List<String> calls = new CopyOnWriteArrayList<>();

    private McpTestUpstream() {
        var transport = WebFluxStreamableServerTransportProvider.builder().messageEndpoint("/mcp").build();
        this.server = McpServer.async(transport).serverInfo("test-upstream", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tool("delete_repo"), tool("list_repos"))
                .build();
        this.http = HttpServer.create().host("127.0.0.1").port(0)
                .handle(new ReactorHttpHandlerAdapter(RouterFunctions.toHttpHandler(transport.getRouterFunction())))
                .bindNow(Duration.ofSeconds(10));
    }

    public static McpTestUpstream start() {
        return new McpTestUpstream();
    }

    private AsyncToolSpecification tool(String name) {
        return AsyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(name).inputSchema(Map.of("type", "object")).build())
                .callHandler((exchange, request) -> {
                    Object marker = request.arguments() == null ? null : request.arguments().get("marker");
                    calls.add(name + " " + marker);
                    return Mono.just(McpSchema.CallToolResult.builder().addTextContent(name + " done " + marker)
                            .isError(false).build());
                })
                .build();
    }

    public String url() {
        return "http://127.0.0.1:" + http.port() + "/mcp";
    }

    /** The calls it ran, as {@code "<tool> <marker>"}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void close() {
        server.closeGracefully().block(Duration.ofSeconds(5));
        http.disposeNow(Duration.ofSeconds(5));
    }
}
