package io.agentgateway.launcher.mcp;

import io.agentgateway.launcher.support.McpSdkUpstream;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real upstream MCP server (the official Java SDK's, on an embedded Tomcat, streamable HTTP at {@code /mcp}
 * and HTTP+SSE at {@code /sse}: {@link McpSdkUpstream}) whose tools initiate what a server may initiate. {@code ask_user} sends a
 * logging notification, then asks the client, each only if the client declared it: {@code elicitation/create}
 * (a "name"), {@code sampling/createMessage} and {@code roots/list}; its result says what it got (an elicitation
 * answered with an error as {@code elicited=error:<message>}) and which client capabilities it saw.
 * {@code slow} waits until released (or 20 s). Every message posted to the server is recorded as it arrived (to
 * see the gate's {@code notifications/cancelled}).
 */
final class McpAskingUpstream implements AutoCloseable {
    /** The body of every POST, as it arrived. */
    final List<String> posted = new CopyOnWriteArrayList<>();
    /** The client capabilities each ask_user call saw, as "elicitation,sampling,roots" (those present). */
    final List<String> capabilitiesSeen = new CopyOnWriteArrayList<>();
    final CountDownLatch releaseSlow = new CountDownLatch(1);
    final CountDownLatch slowStarted = new CountDownLatch(1);
    private final McpSdkUpstream sdk;

    private McpAskingUpstream() {
        var capabilities = McpSchema.ServerCapabilities.builder().tools(true).logging().build();
        this.sdk = McpSdkUpstream.start("mcp-asking", 0, streamable -> streamable, this::record,
                spec -> spec.serverInfo("asking-upstream", "1.0.0").requestTimeout(Duration.ofSeconds(30))
                        .capabilities(capabilities).tools(tools()).build());
    }

    static McpAskingUpstream start() {
        return new McpAskingUpstream();
    }

    String streamableUrl() {
        return sdk.streamableUrl();
    }

    String sseUrl() {
        return sdk.sseUrl();
    }

    /** Tells every session of both transports that the tools changed ({@code notifications/tools/list_changed}). */
    void toolsChanged() {
        sdk.servers().forEach(McpSyncServer::notifyToolsListChanged);
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
                        try {
                            var elicited = exchange.createElicitation(McpSchema.ElicitRequest.builder().message("Your name?")
                                    .requestedSchema(Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string"))))
                                    .build());
                            text.append(" elicited=").append(elicited.action()).append(':').append(elicited.content() == null
                                    ? null : elicited.content().get("name"));
                        } catch (McpError refused) { // the error the client side (or the gate) answered with
                            text.append(" elicited=error:").append(refused.getJsonRpcError().message());
                        }
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
        sdk.close();
    }

    /** Records each POST's body; the SDK's servlet then reads it as it came. */
    private HttpServletRequest record(HttpServletRequest request) throws IOException {
        if (!"POST".equals(request.getMethod())) {
            return request;
        }
        byte[] body = request.getInputStream().readAllBytes();
        posted.add(new String(body, StandardCharsets.UTF_8));
        return new HttpServletRequestWrapper(request) {
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
        };
    }
}
