package io.agentgateway.ingress.mcp;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.ingress.connection.ConnectionSecrets;
import io.agentgateway.ingress.connection.UnreadableSecretException;
import io.agentgateway.schemas.Tool;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.netty.channel.ChannelOption;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.mcp.client.webflux.transport.WebClientStreamableHttpTransport;
import org.springframework.ai.mcp.client.webflux.transport.WebFluxSseClientTransport;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.util.DefaultUriBuilderFactory;
import reactor.core.publisher.Mono;

/**
 * One initialized MCP SDK client per workspace, for the version of its connection: upstream sessions
 * are kept alive and reused across calls; a changed connection gets a new client and the replaced one
 * is closed. A client whose initialization failed is forgotten, so the next call tries again.
 *
 * <p>The clients are the SDK's, over its WebClient transports: Reactor Netty on the ingress's own event
 * loops, as the proxy's forwarding, rather than the JDK HttpClient's selector and worker threads (a
 * thread hand-off each way on every call). Netty's automatic retry is off: a call is sent at most once.
 */
@Component
class McpUpstreamClients implements SmartLifecycle, DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(McpUpstreamClients.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    private static final McpSchema.Implementation CLIENT_INFO = new McpSchema.Implementation("service-mcp-gate", "1.0.0");

    private final Map<UUID, Session> sessions = new ConcurrentHashMap<>();
    private final Duration timeout;
    private final ReactorClientHttpConnector connector;
    private final ConnectionSecrets secrets;
    private volatile boolean running;

    McpUpstreamClients(McpGateProperties properties, ReactorResourceFactory resources, ConnectionSecrets secrets,
                       EgressClients egress) {
        this.timeout = properties.requestTimeout();
        this.secrets = secrets;
        // no response timeout here: the SSE transport's event stream stays open and idle between calls;
        // every request is bounded by the SDK client's request timeout instead
        // the egress policy checks every address connected to; every request carries the hop marker
        this.connector = new ReactorClientHttpConnector(resources, http -> egress.apply(http)
                .disableRetry(true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), Integer.MAX_VALUE)));
    }

    /** An initialized client for the upstream (the error signal when it cannot be reached or initialized). */
    Mono<McpAsyncClient> clientFor(McpUpstream upstream) {
        Session session;
        try {
            session = session(upstream);
        } catch (UnreadableSecretException e) {
            // fail closed, and say why without the secret
            return Mono.error(JsonRpcError.upstream("The credential of the upstream MCP server cannot be opened"));
        }
        return ready(upstream, session);
    }

    private Session session(McpUpstream upstream) {
        return sessions.compute(upstream.workspaceId(), (id, current) -> {
            if (current != null && current.version() == upstream.version()) {
                return current;
            }
            if (current != null) {
                current.close();
            }
            return open(upstream);
        });
    }

    private Mono<McpAsyncClient> ready(McpUpstream upstream, Session session) {
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

    private McpClientTransport transport(McpUpstream upstream) {
        URI uri = URI.create(upstream.serverUrl());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        // the configured URL's path and query are sent as they are, not encoded again as a URI template
        DefaultUriBuilderFactory uris = new DefaultUriBuilderFactory(base);
        uris.setEncodingMode(DefaultUriBuilderFactory.EncodingMode.NONE);
        WebClient.Builder web = WebClient.builder().uriBuilderFactory(uris).clientConnector(connector);
        // opened here, once per client of a connection version: the client's requests carry it from now on
        String authorization = upstream.authorization(
                secrets.open(upstream.workspaceId(), Tool.MCP, upstream.token(), "access token"));
        if (authorization != null) {
            web.defaultHeader(HttpHeaders.AUTHORIZATION, authorization);
        }
        return switch (upstream.transport()) {
            case SSE -> WebFluxSseClientTransport.builder(web).sseEndpoint(path).build();
            case HTTP -> WebClientStreamableHttpTransport.builder(web).endpoint(path).build();
        };
    }

    /**
     * Phase 1, one above Spring's {@code ReactorResourceFactory} (0): contexts stop higher phases first,
     * so the sessions are closed (each a DELETE to its upstream) while the event loops they run on still
     * run, and after the web server stopped taking calls. Closing them later fails on every shutdown.
     */
    @Override
    public int getPhase() {
        return 1;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void stop() {
        running = false;
        closeAll();
    }

    /** Should the context close without stopping (a failed start), whatever was opened is closed here. */
    @Override
    public void destroy() {
        closeAll();
    }

    private void closeAll() {
        List<Mono<Void>> closing = sessions.values().stream().map(Session::closing).toList();
        sessions.clear();
        if (!closing.isEmpty()) {
            Mono.when(closing).block(CLOSE_TIMEOUT.plusSeconds(1));
        }
    }

    private record Session(long version, McpAsyncClient client, Mono<McpAsyncClient> ready) {
        void close() {
            closing().subscribe();
        }

        Mono<Void> closing() {
            return client.closeGracefully().timeout(CLOSE_TIMEOUT).onErrorResume(e -> {
                log.debug("closing an upstream MCP client failed", e);
                return Mono.empty();
            });
        }
    }
}
