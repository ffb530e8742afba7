package io.agentgateway.benchmark;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * The upstream of {@link McpGateBenchmark}: an MCP server built with the official Java SDK on an
 * embedded Tomcat (streamable HTTP at {@code /mcp}), with one tool, {@code list_repos}, that answers
 * a short text at once, so the numbers are the transport's and the gate's, not the tool's.
 */
final class BenchMcpUpstream implements AutoCloseable {
    static final String TOOL = "list_repos";

    private final Tomcat tomcat;
    private final McpSyncServer server;
    private final int port;

    private BenchMcpUpstream(Tomcat tomcat, McpSyncServer server, int port) {
        this.tomcat = tomcat;
        this.server = server;
        this.port = port;
    }

    static BenchMcpUpstream start() throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("bench-mcp-upstream-").toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        Wrapper wrapper = Tomcat.addServlet(context, "mcp", transport);
        wrapper.setAsyncSupported(true);
        context.addServletMappingDecoded("/mcp", "mcp");
        tomcat.getConnector();
        tomcat.start();
        McpSyncServer server = McpServer.sync(transport).serverInfo("bench-upstream", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(SyncToolSpecification.builder()
                        .tool(McpSchema.Tool.builder().name(TOOL).description("lists repositories")
                                .inputSchema(Map.of("type", "object")).build())
                        .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                                .addTextContent("repo-a, repo-b").isError(false).build())
                        .build())
                .build();
        return new BenchMcpUpstream(tomcat, server, tomcat.getConnector().getLocalPort());
    }

    String url() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    @Override
    public void close() throws Exception {
        server.closeGracefully();
        tomcat.stop();
        tomcat.destroy();
    }
}
