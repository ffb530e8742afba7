package io.agentgateway.launcher;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A real upstream MCP server (the official Java SDK's, on an embedded Tomcat, streamable HTTP at {@code /mcp}
 * and HTTP+SSE at {@code /sse}) whose tools initiate what a server may initiate. {@code ask_user} sends a
 * logging notification, then asks the client, each only if the client declared it: {@code elicitation/create}
 * (a "name"), {@code sampling/createMessage} and {@code roots/list}; its result says what it got and which
 * client capabilities it saw. {@code slow} waits until released (or 20 s). Every message posted to the server
 * is recorded as it arrived (to see the gate's {@code notifications/cancelled}).
 */
final class McpAskingUpstream implements AutoCloseable {
    private final Tomcat tomcat;
    private final int port;
    private final List<McpSyncServer> servers = new CopyOnWriteArrayList<>();
    /** The body of every POST, as it arrived. */
    final List<String> posted = new CopyOnWriteArrayList<>();
    /** The client capabilities each ask_user call saw, as "elicitation,sampling,roots" (those present). */
    final List<String> capabilitiesSeen = new CopyOnWriteArrayList<>();
    final CountDownLatch releaseSlow = new CountDownLatch(1);
    final CountDownLatch slowStarted = new CountDownLatch(1);

    private McpAskingUpstream(Tomcat tomcat, int port) {
        this.tomcat = tomcat;
        this.port = port;
    }

    static McpAskingUpstream start() {
        try {
            var streamable = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
            var sse = HttpServletSseServerTransportProvider.builder().sseEndpoint("/sse").messageEndpoint("/message").build();
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(Files.createTempDirectory("mcp-asking-").toString());
            tomcat.setPort(0);
            Context context = tomcat.addContext("", null);
            McpAskingUpstream[] self = new McpAskingUpstream[1];
            add(context, "streamable", new Recording(streamable, self), "/mcp");
            add(context, "sse", new Recording(sse, self), "/sse", "/message");
            tomcat.getConnector();
            tomcat.start();
            self[0] = new McpAskingUpstream(tomcat, tomcat.getConnector().getLocalPort());
            var capabilities = McpSchema.ServerCapabilities.builder().tools(true).logging().build();
            self[0].servers.add(McpServer.sync(streamable).serverInfo("asking-upstream", "1.0.0").requestTimeout(Duration.ofSeconds(30))
                    .capabilities(capabilities).tools(self[0].tools()).build());
            self[0].servers.add(McpServer.sync(sse).serverInfo("asking-upstream", "1.0.0").requestTimeout(Duration.ofSeconds(30))
                    .capabilities(capabilities).tools(self[0].tools()).build());
            return self[0];
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the asking upstream MCP server", e);
        }
    }

    private static void add(Context context, String name, HttpServlet servlet, String... patterns) {
        Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
        wrapper.setAsyncSupported(true);
        for (String pattern : patterns) {
            context.addServletMappingDecoded(pattern, name);
        }
    }

    String streamableUrl() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    String sseUrl() {
        return "http://127.0.0.1:" + port + "/sse";
    }

    /** Tells every session of both transports that the tools changed ({@code notifications/tools/list_changed}). */
    void toolsChanged() {
        servers.forEach(McpSyncServer::notifyToolsListChanged);
    }

    private List<SyncToolSpecification> tools() {
        var schema = Map.<String, Object>of("type", "object", "properties", Map.of("marker", Map.of("type", "string")));
        SyncToolSpecification ask = SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name("ask_user").description("asks the client").inputSchema(schema).build())
                .callHandler((exchange, request) -> {
                    McpSchema.ClientCapabilities caps = exchange.getClientCapabilities();
                    String seen = String.join(",", java.util.stream.Stream.of(
                            caps != null && caps.elicitation() != null ? "elicitation" : null,
                            caps != null && caps.sampling() != null ? "sampling" : null,
                            caps != null && caps.roots() != null ? "roots" : null).filter(java.util.Objects::nonNull).toList());
                    capabilitiesSeen.add(seen);
                    exchange.loggingNotification(McpSchema.LoggingMessageNotification.builder()
                            .level(McpSchema.LoggingLevel.WARNING).logger("asking").data("asking " + request.arguments().get("marker")).build());
                    StringBuilder text = new StringBuilder("caps=" + seen);
                    if (caps != null && caps.elicitation() != null) {
                        var elicited = exchange.createElicitation(McpSchema.ElicitRequest.builder().message("Your name?")
                                .requestedSchema(Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string"))))
                                .build());
                        text.append(" elicited=").append(elicited.action()).append(':').append(elicited.content() == null
                                ? null : elicited.content().get("name"));
                    }
                    if (caps != null && caps.sampling() != null) {
                        var sampled = exchange.createMessage(McpSchema.CreateMessageRequest.builder()
                                .messages(List.of(new McpSchema.SamplingMessage(McpSchema.Role.USER, new McpSchema.TextContent("2+2?"))))
                                .maxTokens(10).build());
                        text.append(" sampled=").append(((McpSchema.TextContent) sampled.content()).text());
                    }
                    if (caps != null && caps.roots() != null) {
                        text.append(" roots=").append(exchange.listRoots().roots().stream().map(McpSchema.Root::uri).toList());
                    }
                    return McpSchema.CallToolResult.builder().addTextContent(text.toString()).isError(false).build();
                }).build();
        SyncToolSpecification slow = SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name("slow").description("waits").inputSchema(schema).build())
                .callHandler((exchange, request) -> {
                    slowStarted.countDown();
                    try {
                        releaseSlow.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return McpSchema.CallToolResult.builder().addTextContent("slow done").isError(false).build();
                }).build();
        return List.of(ask, slow);
    }

    @Override
    public void close() {
        releaseSlow.countDown();
        servers.forEach(McpSyncServer::closeGracefully);
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records each POST's body, then lets the SDK's servlet read it as it came. */
    private static final class Recording extends HttpServlet {
        private final HttpServlet delegate;
        private final McpAskingUpstream[] self;

        Recording(HttpServlet delegate, McpAskingUpstream[] self) {
            this.delegate = delegate;
            this.self = self;
        }

        @Override
        public void init() throws ServletException {
            delegate.init(getServletConfig());
        }

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            if (!"POST".equals(request.getMethod())) {
                delegate.service(request, response);
                return;
            }
            byte[] body = request.getInputStream().readAllBytes();
            if (self[0] != null) {
                self[0].posted.add(new String(body, StandardCharsets.UTF_8));
            }
            delegate.service(new HttpServletRequestWrapper(request) {
                @Override
                public ServletInputStream getInputStream() {
                    ByteArrayInputStream in = new ByteArrayInputStream(body);
                    return new ServletInputStream() {
                        @Override
                        public int read() {
                            return in.read();
                        }

                        @Override
                        public boolean isFinished() {
                            return in.available() == 0;
                        }

                        @Override
                        public boolean isReady() {
                            return true;
                        }

                        @Override
                        public void setReadListener(ReadListener listener) {
                            throw new UnsupportedOperationException();
                        }
                    };
                }

                @Override
                public BufferedReader getReader() {
                    return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
                }
            }, response);
        }
    }
}
