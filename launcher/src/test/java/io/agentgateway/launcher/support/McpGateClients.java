package io.agentgateway.launcher.support;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The MCP gate as the launcher's tests reach it: a workspace's {@code mcp} tool connection, and the official Java
 * SDK's client transports to the gate (Streamable HTTP, HTTP+SSE) with the workspace's key.
 */
public final class McpGateClients {
    /** The gate's endpoint: Streamable HTTP (POST) and HTTP+SSE (GET) alike. */
    public static final String GATE = "/functions/v1/mcp-gate/sse";
    private static final HttpClient RAW = HttpClient.newHttpClient();

    private McpGateClients() {}

    /** Points the workspace's {@code mcp} connection at an upstream and waits until the gate serves it. */
    public static void connect(TestWorkspace ws, String url, String transport, String authType, String token) {
        Map<String, Object> body = new HashMap<>(Map.of("mcp_server_url", url, "mcp_transport", transport,
                "mcp_auth_type", authType));
        if (token != null) {
            body.put("config", Map.of("access_token", token));
        }
        var r = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), body);
        assertThat(r.status()).as(r.rawBody()).isEqualTo(200);
        // the gate reads the connection from the read model: wait until it serves this one
        String expected = url;
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            var got = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), null);
            return got.status() == 200 && expected.equals(got.body().path("mcp_server_url").asString(null))
                    && transport.equals(got.body().path("mcp_transport").asString(null))
                    && authType.equals(got.body().path("mcp_auth_type").asString(null));
        });
    }

    /** Streamable HTTP to the gate of the ingress at {@code baseUrl}, with the key and, unless null, an {@code X-Agent-Id}. */
    public static McpClientTransport streamable(String baseUrl, String apiKey, String agentId) {
        return HttpClientStreamableHttpTransport.builder(baseUrl).endpoint(GATE)
                .httpRequestCustomizer((request, method, uri, body, context) -> headers(request, apiKey, agentId))
                .build();
    }

    /** HTTP+SSE to the gate of the ingress at {@code baseUrl}, with the key and, unless null, an {@code X-Agent-Id}. */
    public static McpClientTransport sse(String baseUrl, String apiKey, String agentId) {
        return HttpClientSseClientTransport.builder(baseUrl).sseEndpoint(GATE)
                .httpRequestCustomizer((request, method, uri, body, context) -> headers(request, apiKey, agentId))
                .build();
    }

    private static void headers(HttpRequest.Builder request, String apiKey, String agentId) {
        request.setHeader("Authorization", "Bearer " + apiKey);
        if (agentId != null) {
            request.setHeader("X-Agent-Id", agentId);
        }
    }

    /** Sends a plain HTTP request (to the gate, as a client library would not), the answer's body as text. */
    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return RAW.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A sync SDK client over the transport (20 s per request), initialized. */
    public static McpSyncClient initialized(McpClientTransport transport) {
        McpSyncClient sdk = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        sdk.initialize();
        return sdk;
    }
}
