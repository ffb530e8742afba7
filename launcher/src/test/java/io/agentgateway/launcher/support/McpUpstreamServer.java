package io.agentgateway.launcher.support;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real upstream MCP server built with the official Java SDK, served by an embedded Tomcat over
 * both transports ({@link McpSdkUpstream}: streamable HTTP at {@code /mcp}, HTTP+SSE at {@code /sse}). Its tools ({@code list_repos}, {@code create_issue}, {@code delete_repo},
 * {@code merge_pull_request}, {@code read_file}) record every call they execute, its resources and prompt every
 * read ({@link #reads}), and every request
 * records the Authorization header it came with.
 */
public final class McpUpstreamServer implements AutoCloseable {
    private static final String AUTHORIZATION = "authorization";
    public static final List<String> TOOLS = List.of("list_repos", "create_issue", "delete_repo", "merge_pull_request", "read_file",
            "get_big_text", "delete_big_text", "read_report");

    /** @param authorization the Authorization header of the request that carried the call (streamable HTTP only) */
    public record Call(String tool, Map<String, Object> arguments, String authorization) {}

    /** A resources/read (id the URI) or prompts/get (id the name, with its arguments) the server answered. */
    public record Read(String method, String id, Map<String, Object> arguments) {}

    /** One HTTP request as it arrived: its method and Authorization header. */
    public record Received(String method, String authorization) {}

    public final List<Call> calls = new CopyOnWriteArrayList<>();
    /** Every resources/read and prompts/get it answered, in order. */
    public final List<Read> reads = new CopyOnWriteArrayList<>();
    public final List<String> authorizations = new CopyOnWriteArrayList<>();
    /** Every HTTP request, in arrival order. */
    public final List<Received> received = new CopyOnWriteArrayList<>();
    /** The raw query string of every request that had one, as it arrived. */
    public final List<String> queries = new CopyOnWriteArrayList<>();
    /** Every HTTP request that reached the server (a cached tools/list adds none). */
    public final AtomicInteger requests = new AtomicInteger();
    private final McpSdkUpstream sdk;

    private McpUpstreamServer(int fixedPort) {
        var capabilities = McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).prompts(false).build();
        this.sdk = McpSdkUpstream.start("mcp-upstream", fixedPort,
                streamable -> streamable.contextExtractor(request -> McpTransportContext.create(
                        Map.of(AUTHORIZATION, String.valueOf(request.getHeader("Authorization"))))),
                this::record,
                spec -> spec.serverInfo("test-upstream", "1.0.0").capabilities(capabilities)
                        .tools(tools()).resources(resources()).prompts(prompts()).build());
    }

    public static McpUpstreamServer start() {
        return start(0);
    }

    /** On a given port: a server started again on its predecessor's port is that upstream restarted (no sessions). */
    public static McpUpstreamServer start(int fixedPort) {
        return new McpUpstreamServer(fixedPort);
    }

    /** Records the Authorization header (and query) of every request; the SDK's servlet then answers it. */
    private HttpServletRequest record(HttpServletRequest request) {
        authorizations.add(String.valueOf(request.getHeader("Authorization")));
        received.add(new Received(request.getMethod(), String.valueOf(request.getHeader("Authorization"))));
        if (request.getQueryString() != null) {
            queries.add(request.getQueryString());
        }
        requests.incrementAndGet();
        return request;
    }

    public int port() {
        return sdk.port();
    }

    public String streamableUrl() {
        return sdk.streamableUrl();
    }

    public String sseUrl() {
        return sdk.sseUrl();
    }

    public List<Call> callsOf(String tool, String marker) {
        return calls.stream().filter(c -> c.tool().equals(tool) && marker.equals(c.arguments().get("marker"))).toList();
    }

    /** Resources: each reads as "contents of <uri>". */
    public static final List<String> RESOURCES = List.of("test://readme", "test://secret/plans");

    private List<McpServerFeatures.SyncResourceSpecification> resources() {
        return RESOURCES.stream().map(uri -> new McpServerFeatures.SyncResourceSpecification(
                McpSchema.Resource.builder().uri(uri).name(uri).mimeType("text/plain").build(),
                (exchange, request) -> read(new Read("resources/read", request.uri(), Map.of()), new McpSchema.ReadResourceResult(List.of(
                        new McpSchema.TextResourceContents(request.uri(), "text/plain", "contents of " + request.uri()))))))
                .toList();
    }

    /** One prompt, "greeting", with an argument "name": one user message "Hello <name>". */
    private List<McpServerFeatures.SyncPromptSpecification> prompts() {
        return List.of(new McpServerFeatures.SyncPromptSpecification(
                new McpSchema.Prompt("greeting", "greets", List.of(new McpSchema.PromptArgument("name", "who", true))),
                (exchange, request) -> read(new Read("prompts/get", request.name(),
                        request.arguments() == null ? Map.of() : Map.copyOf(request.arguments())),
                        new McpSchema.GetPromptResult("greeting", List.of(new McpSchema.PromptMessage(
                        McpSchema.Role.USER, new McpSchema.TextContent("Hello " + request.arguments().get("name"))))))));
    }

    private <T> T read(Read read, T result) {
        reads.add(read);
        return result;
    }

    private List<SyncToolSpecification> tools() {
        return TOOLS.stream().map(name -> SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description("test tool " + name)
                        .inputSchema(Map.of("type", "object", "properties", Map.of("marker", Map.of("type", "string"))))
                        .build())
                .callHandler((exchange, request) -> {
                    Object authorization = exchange.transportContext() == null ? null
                            : exchange.transportContext().get(AUTHORIZATION);
                    calls.add(new Call(name, request.arguments() == null ? Map.of() : request.arguments(),
                            authorization == null ? null : authorization.toString()));
                    Object progressToken = request.meta() == null ? null : request.meta().get("progressToken");
                    if (name.equals("read_report") && progressToken != null) {
                        // two progress notifications about this call, before its result
                        exchange.progressNotification(new McpSchema.ProgressNotification(progressToken, 1.0, 2.0, "half"));
                        exchange.progressNotification(new McpSchema.ProgressNotification(progressToken, 2.0, 2.0, "done"));
                    }
                    if (name.endsWith("big_text")) {
                        // a text of arguments.bytes characters (ASCII), for the large-result cases
                        int bytes = ((Number) request.arguments().get("bytes")).intValue();
                        return McpSchema.CallToolResult.builder().addTextContent("x".repeat(bytes)).isError(false).build();
                    }
                    Object marker = request.arguments().get("marker");
                    if ("rpc".equals(request.arguments().get("fail"))) {
                        // the upstream answers with a JSON-RPC error of its own (code, message, data)
                        throw io.modelcontextprotocol.spec.McpError.builder(-32050).message("upstream refuses " + marker)
                                .data(Map.of("hint", "try later")).build();
                    }
                    if (Boolean.TRUE.equals(request.arguments().get("rich"))) {
                        // a whole CallToolResult: text and an image, structured content, the upstream's own _meta
                        return McpSchema.CallToolResult.builder().addTextContent(name + " done " + marker)
                                .addContent(new McpSchema.ImageContent(null, "aGVsbG8=", "image/png"))
                                .structuredContent(Map.of("marker", String.valueOf(marker), "rows", 3))
                                .meta(Map.of("upstream/trace", "t-" + marker)).isError(false).build();
                    }
                    return McpSchema.CallToolResult.builder()
                            .addTextContent(name + " done " + marker).isError(false).build();
                })
                .build()).toList();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
