package io.agentgateway.launcher;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A real upstream MCP server built with the official Java SDK, served by an embedded Tomcat over
 * both transports: streamable HTTP at {@code /mcp} and HTTP+SSE at {@code /sse} (messages to
 * {@code /message}). Its tools ({@code list_repos}, {@code create_issue}, {@code delete_repo},
 * {@code merge_pull_request}, {@code read_file}) record every call they execute, its resources and prompt every
 * read ({@link #reads}), and every request
 * records the Authorization header it came with.
 */
final class McpUpstreamServer implements AutoCloseable {
    private static final String AUTHORIZATION = "authorization";
    static final List<String> TOOLS = List.of("list_repos", "create_issue", "delete_repo", "merge_pull_request", "read_file",
            "get_big_text", "delete_big_text", "read_report");

    /** @param authorization the Authorization header of the request that carried the call (streamable HTTP only) */
    record Call(String tool, Map<String, Object> arguments, String authorization) {}

    /** A resources/read (id the URI) or prompts/get (id the name, with its arguments) the server answered. */
    record Read(String method, String id, Map<String, Object> arguments) {}

    /** One HTTP request as it arrived: its method and Authorization header. */
    record Received(String method, String authorization) {}

    private final Tomcat tomcat;
    private final int port;
    private final List<McpSyncServer> servers;
    final List<Call> calls = new CopyOnWriteArrayList<>();
    /** Every resources/read and prompts/get it answered, in order. */
    final List<Read> reads = new CopyOnWriteArrayList<>();
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    /** Every HTTP request, in arrival order. */
    final List<Received> received = new CopyOnWriteArrayList<>();
    /** The raw query string of every request that had one, as it arrived. */
    final List<String> queries = new CopyOnWriteArrayList<>();
    /** Every HTTP request that reached the server (a cached tools/list adds none). */
    final AtomicInteger requests = new AtomicInteger();

    private McpUpstreamServer(Tomcat tomcat, int port, List<McpSyncServer> servers) {
        this.tomcat = tomcat;
        this.port = port;
        this.servers = servers;
    }

    static McpUpstreamServer start() {
        return start(0);
    }

    /** On a given port: a server started again on its predecessor's port is that upstream restarted (no sessions). */
    static McpUpstreamServer start(int fixedPort) {
        try {
            var streamable = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp")
                    .contextExtractor(request -> McpTransportContext.create(
                            Map.of(AUTHORIZATION, String.valueOf(request.getHeader("Authorization")))))
                    .build();
            var sse = HttpServletSseServerTransportProvider.builder().sseEndpoint("/sse").messageEndpoint("/message").build();
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(Files.createTempDirectory("mcp-upstream-").toString());
            tomcat.setPort(fixedPort);
            Context context = tomcat.addContext("", null);
            McpUpstreamServer[] self = new McpUpstreamServer[1];
            addServlet(context, "streamable", new Recording(streamable, self), "/mcp");
            addServlet(context, "sse", new Recording(sse, self), "/sse", "/message");
            tomcat.getConnector();
            tomcat.start();
            int port = tomcat.getConnector().getLocalPort();
            List<McpSyncServer> servers = new java.util.ArrayList<>();
            self[0] = new McpUpstreamServer(tomcat, port, servers);
            servers.add(McpServer.sync(streamable).serverInfo("test-upstream", "1.0.0")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).prompts(false).build())
                    .tools(self[0].tools()).resources(self[0].resources()).prompts(self[0].prompts()).build());
            servers.add(McpServer.sync(sse).serverInfo("test-upstream", "1.0.0")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).prompts(false).build())
                    .tools(self[0].tools()).resources(self[0].resources()).prompts(self[0].prompts()).build());
            return self[0];
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the upstream MCP server", e);
        }
    }

    private static void addServlet(Context context, String name, HttpServlet servlet, String... patterns) {
        Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
        wrapper.setAsyncSupported(true);
        for (String pattern : patterns) {
            context.addServletMappingDecoded(pattern, name);
        }
    }

    int port() {
        return port;
    }

    String streamableUrl() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    String sseUrl() {
        return "http://127.0.0.1:" + port + "/sse";
    }

    List<Call> callsOf(String tool, String marker) {
        return calls.stream().filter(c -> c.tool().equals(tool) && marker.equals(c.arguments().get("marker"))).toList();
    }

    /** Resources: each reads as "contents of <uri>". */
    static final List<String> RESOURCES = List.of("test://readme", "test://secret/plans");

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
                    return McpSchema.CallToolResult.builder()
                            .addTextContent(name + " done " + request.arguments().get("marker")).isError(false).build();
                })
                .build()).toList();
    }

    @Override
    public void close() {
        servers.forEach(McpSyncServer::closeGracefully);
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records the Authorization header of every request, then lets the SDK's servlet answer. */
    private static final class Recording extends HttpServlet {
        private final HttpServlet delegate;
        private final McpUpstreamServer[] self;

        Recording(HttpServlet delegate, McpUpstreamServer[] self) {
            this.delegate = delegate;
            this.self = self;
        }

        @Override
        public void init() throws ServletException {
            delegate.init(getServletConfig());
        }

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            if (self[0] != null) {
                self[0].authorizations.add(String.valueOf(request.getHeader("Authorization")));
                self[0].received.add(new Received(request.getMethod(), String.valueOf(request.getHeader("Authorization"))));
                if (request.getQueryString() != null) {
                    self[0].queries.add(request.getQueryString());
                }
                self[0].requests.incrementAndGet();
            }
            delegate.service(request, response);
        }
    }
}
