package io.agentgateway.ingress.mcp;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * One initialized MCP SDK client per workspace, for the version of its connection: upstream sessions
 * are kept alive and reused across calls; a changed connection gets a new client and the replaced one
 * is closed. A client whose initialization failed is forgotten, so the next call tries again.
 */
@Component
class McpUpstreamClients implements DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(McpUpstreamClients.class);
    private static final McpSchema.Implementation CLIENT_INFO = new McpSchema.Implementation("service-mcp-gate", "1.0.0");

    private final Map<UUID, Session> sessions = new ConcurrentHashMap<>();
    private final Duration timeout;

    McpUpstreamClients(McpGateProperties properties) {
        this.timeout = properties.requestTimeout();
    }

    /** An initialized client for the upstream (the error signal when it cannot be reached or initialized). */
    Mono<McpAsyncClient> clientFor(McpUpstream upstream) {
        Session session = sessions.compute(upstream.workspaceId(), (id, current) -> {
            if (current != null && current.version() == upstream.version()) {
                return current;
            }
            if (current != null) {
                current.close();
            }
            return open(upstream);
        });
        return session.ready().onErrorResume(failure -> {
            // forget the failed session (only if it is still the current one) so the next call retries
            if (sessions.remove(upstream.workspaceId(), session)) {
                session.close();
            }
            return Mono.error(failure);
        });
    }

    private Session open(McpUpstream upstream) {
        McpAsyncClient client = McpClient.async(transport(upstream))
                .clientInfo(CLIENT_INFO)
                .requestTimeout(timeout)
                .initializationTimeout(timeout)
                .build();
        // cache() shares one initialize among concurrent first calls; a failure is cached too, until removed above
        Mono<McpAsyncClient> ready = client.initialize().thenReturn(client).cache();
        return new Session(upstream.version(), client, ready);
    }

    static McpClientTransport transport(McpUpstream upstream) {
        URI uri = URI.create(upstream.serverUrl());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String authorization = upstream.authorization();
        McpSyncHttpClientRequestCustomizer credential = (request, method, endpoint, body, context) -> {
            if (authorization != null) {
                request.setHeader("Authorization", authorization);
            }
        };
        return switch (upstream.transport()) {
            case SSE -> HttpClientSseClientTransport.builder(base).sseEndpoint(path)
                    .httpRequestCustomizer(credential).build();
            case HTTP -> HttpClientStreamableHttpTransport.builder(base).endpoint(path)
                    .httpRequestCustomizer(credential).build();
        };
    }

    @Override
    public void destroy() {
        sessions.values().forEach(Session::close);
        sessions.clear();
    }

    private record Session(long version, McpAsyncClient client, Mono<McpAsyncClient> ready) {
        void close() {
            client.closeGracefully().timeout(Duration.ofSeconds(2)).onErrorResume(e -> {
                log.debug("closing a replaced upstream MCP client failed", e);
                return Mono.empty();
            }).subscribe();
        }
    }
}
