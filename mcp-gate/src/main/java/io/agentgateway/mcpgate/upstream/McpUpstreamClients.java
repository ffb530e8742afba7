package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.actiongate.connection.ConnectionSecrets;
import io.agentgateway.actiongate.connection.UnreadableSecretException;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import io.netty.channel.ChannelOption;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
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
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import org.springframework.web.util.DefaultUriBuilderFactory;
import reactor.core.publisher.Mono;

/**
 * One initialized MCP SDK client per workspace and client session, for the version of its connection:
 * upstream sessions are kept alive and reused across calls; a changed connection gets a new client and
 * the replaced one is closed. A client whose initialization failed is forgotten, so the next call tries again.
 *
 * <p>Each MCP client session ({@link McpClientSession}) gets an upstream session of its own on the replica
 * that serves its requests, opened by its first request there: it declares to the upstream exactly the
 * client capabilities the client declared (elicitation, sampling, roots), and what the upstream initiates on
 * it (those requests, logging and list_changed notifications, cancellations) is the client's
 * ({@link McpRelayTransport}). Requests without a client session (held calls run by the approval executor,
 * clients without a session id) share the workspace's gate-owned session, which declares no client
 * capabilities. A client session's upstream session is closed when its HTTP+SSE stream ends or after
 * {@code gateway.mcp.client-session-idle-timeout} without use ({@code McpClientSessions}).
 *
 * <p>The clients are the SDK's, over its WebClient transports: Reactor Netty on the ingress's own event
 * loops, as the proxy's forwarding, rather than the JDK HttpClient's selector and worker threads (a
 * thread hand-off each way on every call). Netty's automatic retry is off: a call is sent at most once.
 */
@Component
public class McpUpstreamClients implements SmartLifecycle, DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(McpUpstreamClients.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
    private static final McpSchema.Implementation CLIENT_INFO = new McpSchema.Implementation("service-mcp-gate", "1.0.0");

    private final Map<Key, Session> sessions = new ConcurrentHashMap<>();
    private final McpServerRequests serverRequests;

    /** @param client the client session's id, "" for the gate-owned session */
    private record Key(UUID workspaceId, String client) {
        static Key of(McpUpstream upstream, McpClientSession client) {
            return new Key(upstream.workspaceId(), client == null ? "" : client.id());
        }
    }
    private final Duration timeout;
    private final int maxResultBytes;
    private final ReactorClientHttpConnector connector;
    private final ExchangeFilterFunction spans;
    private final GatewayTracing tracing;
    private final ConnectionSecrets secrets;
    private volatile boolean running;

    private final McpProgressRoutes progress;

    McpUpstreamClients(McpGateProperties properties, ReactorResourceFactory resources, ConnectionSecrets secrets,
                       EgressClients egress, McpProgressRoutes progress, McpServerRequests serverRequests) {
        this.progress = progress;
        this.serverRequests = serverRequests;
        this.timeout = properties.requestTimeout();
        this.maxResultBytes = properties.maxResultBytes();
        this.secrets = secrets;
        this.spans = egress.spans("mcp");
        this.tracing = egress.tracing();
        // no response timeout here: the SSE transport's event stream stays open and idle between calls;
        // every request is bounded by the SDK client's request timeout instead
        // the egress policy checks every address connected to; every request carries the hop marker
        this.connector = new ReactorClientHttpConnector(resources, http -> egress.apply(http)
                .disableRetry(true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), Integer.MAX_VALUE)));
    }

    /**
     * Runs one request on the workspace's initialized client. A session the upstream no longer knows (an
     * HTTP 404 on its session id: the upstream restarted or expired it) proves the request did not run
     * there: the session is replaced by a new one and the request sent once more, once. An answer over
     * {@code gateway.mcp.max-result-bytes}, and the loss of an HTTP+SSE session's event stream while the
     * request waits, end it at once ({@link McpUpstreamCalls} says the outcome is unknown).
     *
     * <p>Failures before anything was sent (no credential, no connection, initialize failed) are
     * {@link JsonRpcError#notSent()}.
     */
    public <T> Mono<T> request(McpUpstream upstream, String method, Function<McpAsyncClient, Mono<T>> request) {
        return request(upstream, null, method, request);
    }

    /** As {@link #request(McpUpstream, String, Function)}, on the client session's own upstream session (null: the gate's). */
    public <T> Mono<T> request(McpUpstream upstream, McpClientSession client, String method, Function<McpAsyncClient, Mono<T>> request) {
        if (client != null) {
            client.touch();
        }
        Mono<T> answered = attempt(upstream, client, method, request).onErrorResume(SessionLost.class, lost -> {
            log.info("upstream MCP session of workspace {} lost ({}); opening a new one", upstream.workspaceId(), lost.getMessage());
            return attempt(upstream, client, method, request);
        });
        // the client span of the request as a whole (a new session and a second attempt included); the HTTP exchanges
        // under it are spans of their own where the SDK carries the pipeline's context down to its WebClient
        return ReactorTracing.within(tracing, "mcp " + method, SpanKind.CLIENT, Attributes.of(
                GatewayAttributes.UPSTREAM, "mcp", GatewayAttributes.RPC_METHOD, method), answered);
    }

    /** Whether the workspace has an initialized session with this connection version (no upstream traffic to know). */
    boolean isReady(McpUpstream upstream, McpClientSession client) {
        Session session = sessions.get(Key.of(upstream, client));
        return session != null && session.version() == upstream.version() && session.client().isInitialized()
                && !session.bound().eventStreamHasEnded();
    }

    private <T> Mono<T> attempt(McpUpstream upstream, McpClientSession owner, String method,
                                Function<McpAsyncClient, Mono<T>> request) {
        Session session;
        try {
            session = session(upstream, owner);
            if (upstream.transport() == McpTransport.SSE && session.bound().eventStreamHasEnded()) {
                // the upstream closed the session's event stream (restarted, went away): a new session first
                forget(upstream, session);
                session = session(upstream, owner);
            }
        } catch (UnreadableSecretException e) {
            // fail closed, and say why without the secret
            return Mono.error(JsonRpcError.upstream("The credential of the upstream MCP server cannot be opened").asNotSent());
        }
        Session current = session;
        boolean sse = upstream.transport() == McpTransport.SSE;
        return ready(upstream, current).flatMap(client -> {
            long oversizedBefore = current.bound().oversizedAnswers();
            long notFoundBefore = current.bound().unknownSessionAnswers();
            Mono<T> sent = Mono.defer(() -> {
                current.inFlight().incrementAndGet();
                return request.apply(client);
            }).onErrorMap(failure -> provesSessionLost(failure, current, notFoundBefore), failure -> {
                if (sse) {
                    forget(upstream, current);
                } // the SDK's streamable HTTP client initializes a new session itself, before its next request
                return new SessionLost(failure);
            }).doFinally(signal -> current.inFlight().decrementAndGet())
                    .onErrorMap(failure -> !(failure instanceof SessionLost) && current.bound().oversizedAnswers() > oversizedBefore,
                    failure -> {
                        if (sse) {
                            forget(upstream, current); // the event stream could not carry on after it
                        }
                        return McpUpstreamCalls.tooLarge(method, current.bound().maxBytes());
                    });
            Mono<T> tooLarge = current.bound().oversized().next().flatMap(size -> {
                if (sse) {
                    forget(upstream, current); // the event stream could not carry on after it
                }
                return Mono.error(McpUpstreamCalls.tooLarge(method, current.bound().maxBytes()));
            });
            if (!sse) {
                return Mono.firstWithSignal(sent, tooLarge);
            }
            Mono<T> streamLost = current.bound().eventStreamEnded().flatMap(ended -> {
                forget(upstream, current);
                return Mono.error(McpUpstreamCalls.connectionLost(method));
            });
            return Mono.firstWithSignal(sent, tooLarge, streamLost);
        });
    }

    /**
     * A 404 on the session: the upstream does not know it (restarted, expired) and ran nothing of this request.
     * The SDK client reports the streamable transport's {@link McpTransportSessionNotFoundException} by ending
     * the session's pending requests with a plain RuntimeException, {@link #SDK_SESSION_TERMINATED} (mcp-core 2.1.0).
     */
    private static boolean provesSessionLost(Throwable failure, Session session, long notFoundBefore) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof McpTransportSessionNotFoundException || cause instanceof WebClientResponseException.NotFound) {
                return true;
            }
            // the SDK ends every pending request of a closed session with this message, whatever closed it: only
            // a 404 to a POST while this request was the only one in flight says it was this request's POST
            if (SDK_SESSION_TERMINATED.equals(cause.getMessage())) {
                return session.bound().unknownSessionAnswers() > notFoundBefore && session.inFlight().get() == 1;
            }
        }
        return false;
    }

    static final String SDK_SESSION_TERMINATED = "MCP session with server terminated";

    private void forget(McpUpstream upstream, Session session) {
        if (sessions.remove(session.key(), session)) {
            session.close();
        }
    }

    /** The client session ended or idled out: its upstream sessions are closed (each a DELETE to its upstream). */
    public void closeFor(McpClientSession client) {
        client.closed();
        sessions.forEach((key, session) -> {
            if (key.client().equals(client.id()) && sessions.remove(key, session)) {
                session.close();
            }
        });
        serverRequests.forget(client);
    }

    /** Sends a client's notification (roots/list_changed) on its upstream sessions of this replica. */
    public void notifyUpstream(McpClientSession client, String method) {
        sessions.forEach((key, session) -> {
            if (key.client().equals(client.id()) && session.client().isInitialized()) {
                session.transport().sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, null))
                        .onErrorResume(failure -> Mono.empty()).subscribe();
            }
        });
    }

    /** The upstream no longer knows the session; nothing of the request ran there. */
    static final class SessionLost extends RuntimeException {
        SessionLost(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private Session session(McpUpstream upstream, McpClientSession client) {
        return sessions.compute(Key.of(upstream, client), (key, current) -> {
            if (current != null && current.version() == upstream.version()) {
                return current;
            }
            if (current != null) {
                current.close();
            }
            return open(key, upstream, client);
        });
    }

    private Mono<McpAsyncClient> ready(McpUpstream upstream, Session session) {
        return session.ready().onErrorResume(failure -> {
            // forget the failed session (only if it is still the current one) so the next call retries
            forget(upstream, session);
            return Mono.error(McpUpstreamCalls.asRpcError("initialize", failure).asNotSent());
        });
    }

    private Session open(Key key, McpUpstream upstream, McpClientSession clientSession) {
        McpAnswerBound bound = new McpAnswerBound(maxResultBytes);
        McpRelayTransport transport = new McpRelayTransport(transport(upstream, bound), clientSession, serverRequests);
        McpClient.AsyncSpec spec = McpClient.async(transport)
                .clientInfo(CLIENT_INFO)
                .requestTimeout(timeout)
                .initializationTimeout(timeout)
                .progressConsumer(progress::deliver);
        if (clientSession != null && !clientSession.capabilities().isEmpty()) {
            // what the client declared, no more: the upstream asks only what the client can answer. The SDK
            // wants handlers for what is declared; the relay transport takes these requests before they reach them
            spec.capabilities(GatewayJson.MAPPER.convertValue(clientSession.capabilities(),
                            McpSchema.ClientCapabilities.class))
                    .sampling(request -> Mono.error(new IllegalStateException("relayed to the client")))
                    .elicitation(request -> Mono.error(new IllegalStateException("relayed to the client")))
                    .urlElicitation(request -> Mono.error(new IllegalStateException("relayed to the client")));
        }
        McpAsyncClient client = spec.build();
        // cache() shares one initialize among concurrent first calls; a failure is cached too, until removed above
        Mono<McpAsyncClient> ready = client.initialize()
                .doOnNext(initialized -> {
                    if (clientSession != null) {
                        clientSession.upstreamMayInitiate(McpClientSession.mayInitiate(initialized.capabilities()));
                    }
                })
                .thenReturn(client).cache();
        return new Session(key, upstream.version(), client, transport, ready, bound, new AtomicInteger());
    }

    private McpClientTransport transport(McpUpstream upstream, McpAnswerBound bound) {
        URI uri = URI.create(upstream.serverUrl());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        // the configured URL's path and query are sent as they are, not encoded again as a URI template
        DefaultUriBuilderFactory uris = new DefaultUriBuilderFactory(base);
        uris.setEncodingMode(DefaultUriBuilderFactory.EncodingMode.NONE);
        // an answer is decoded whole: up to gateway.mcp.max-result-bytes (Spring's default is 256 KiB)
        WebClient.Builder web = WebClient.builder().uriBuilderFactory(uris).clientConnector(connector)
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(maxResultBytes)).filter(bound).filter(spans);
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

    /** @param inFlight requests sent on the session and not yet answered */
    private record Session(Key key, long version, McpAsyncClient client, McpRelayTransport transport,
                           Mono<McpAsyncClient> ready, McpAnswerBound bound,
                           AtomicInteger inFlight) {
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
