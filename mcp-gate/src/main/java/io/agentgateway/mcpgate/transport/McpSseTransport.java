package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.McpKeys;
import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcMessages;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpRevisions;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.IngressJson;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The older HTTP+SSE client transport (MCP 2024-11-05) at the gate's URL. A GET with {@code Accept:
 * text/event-stream} opens an event stream whose first event, {@code endpoint}, names the URL to POST
 * messages to ({@code ?sessionId=<id>}); each such POST is answered 202 at once and its JSON-RPC
 * response arrives on the stream as a {@code message} event.
 *
 * <p>The same URL serves the Streamable HTTP transport, whose clients also GET it with {@code Accept:
 * text/event-stream} (to listen for server-initiated messages) and expect 405 from a server that has
 * none. The two are told apart by {@code MCP-Protocol-Version}: Streamable HTTP clients send the
 * negotiated version (2025-03-26 or later, the transport did not exist before), or an
 * {@code Mcp-Session-Id}; HTTP+SSE clients send nothing or 2024-11-05 (the official Java SDK sends
 * 2024-11-05). Only the latter get a stream.
 *
 * <p>The key is checked on the GET (an active key with the mcp scope) and again on every POST, which
 * must carry the very key that opened the session: a session is bound to its key and so to the key's
 * workspace. Sessions are held in memory by the instance that serves the stream.
 *
 * <p>A POST whose message is a 2026-07-28 request is checked as on Streamable HTTP ({@link McpRequestMetadata}) and a
 * refusal is the POST's own answer (400 with the JSON-RPC error); what is served answers on the stream as always.
 */
@Component
public class McpSseTransport {
    static final String SESSION_PARAM = "sessionId";
    static final String LEGACY_VERSION = McpRevisions.PROTOCOL_VERSION;
    static final String UNKNOWN_SESSION = "Unknown or closed MCP session";
    static final String OTHER_KEY = "The MCP session was opened with another API key";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final Logger log = LoggerFactory.getLogger(McpSseTransport.class);
    /** Marks the end of a session's answers inside its stream; compared by identity, never written. */
    private static final ServerSentEvent<String> END = ServerSentEvent.<String>builder().comment("end").build();

    private final McpGateHandler gate;
    private final McpKeys keys;
    private final McpSseSessions sessions;
    private final McpOrigins origins;
    private final Duration keepAlive;
    private final Duration idleTimeout;

    McpSseTransport(McpGateHandler gate, McpKeys keys, McpSseSessions sessions, McpGateProperties properties, McpOrigins origins) {
        this.gate = gate;
        this.origins = origins;
        this.keys = keys;
        this.sessions = sessions;
        this.idleTimeout = properties.sseIdleTimeout();
        // the pings also look for idleness: often enough to honour a short idle timeout
        Duration halfIdle = idleTimeout.dividedBy(2);
        this.keepAlive = properties.sseKeepAlive().compareTo(halfIdle) <= 0 ? properties.sseKeepAlive() : halfIdle;
    }

    /** Whether a POST belongs to an HTTP+SSE session (it names one) rather than the JSON / Streamable HTTP exchange. */
    public static boolean isSessionPost(ServerRequest request) {
        return request.queryParam(SESSION_PARAM).isPresent();
    }

    /** GET: an event stream for an HTTP+SSE client, 405 for everyone else (Streamable HTTP expects it). */
    public Mono<ServerResponse> get(ServerRequest request) {
        return Mono.defer(() -> {
            origins.check(request);
            if (!wantsLegacyStream(request)) {
                return Mono.error(ApiException.methodNotAllowed(List.of(HttpMethod.POST)));
            }
            ApiKeyCredential key = ApiKeyCredential.from(request);
            String agentId = request.headers().firstHeader(McpGateHandler.AGENT_HEADER);
            return keys.check(key, agentId, CorrelationIds.of(request)).then(Mono.fromCallable(() -> sessions.open(key, agentId)))
                    .flatMap(session -> ServerResponse.ok()
                            .contentType(MediaType.TEXT_EVENT_STREAM)
                            .header("Cache-Control", "no-store")
                            .header("X-Accel-Buffering", "no")
                            .body(stream(request, session), ServerSentEvent.class));
        });
    }

    private static boolean wantsLegacyStream(ServerRequest request) {
        boolean acceptsEvents = request.headers().accept().stream()
                .anyMatch(type -> type.isCompatibleWith(MediaType.TEXT_EVENT_STREAM) && !type.isWildcardType());
        String version = request.headers().firstHeader(VERSION_HEADER);
        return acceptsEvents && request.headers().firstHeader(SESSION_HEADER) == null
                && (version == null || version.isBlank() || LEGACY_VERSION.equals(version.trim()));
    }

    private Flux<ServerSentEvent<String>> stream(ServerRequest request, McpSseSession session) {
        String endpoint = request.path() + "?" + SESSION_PARAM + "=" + session.id();
        ServerSentEvent<String> first = ServerSentEvent.<String>builder().event("endpoint").data(endpoint).build();
        Flux<ServerSentEvent<String>> answers = session.answers().map(answer -> ServerSentEvent.<String>builder()
                .event("message").data(IngressJson.RESPONSES.writeValueAsString(answer)).build());
        // a session nobody used for gateway.mcp.sse-idle-timeout is closed (which ends its answers, below)
        Flux<ServerSentEvent<String>> pings = Flux.interval(keepAlive)
                .handle((tick, sink) -> {
                    if (session.idleFor().compareTo(idleTimeout) >= 0) {
                        log.debug("MCP event stream {} closed: idle for {}", session.id(), idleTimeout);
                        session.close();
                    } else {
                        sink.next(ServerSentEvent.<String>builder().comment("keep-alive").build());
                    }
                });
        // the stream ends with the session's answers (closed or overflowing): the marker after the last
        // one stops the merge, so the pings do not keep a dead session's stream open
        return Flux.concat(Mono.just(first), Flux.merge(answers.concatWith(Mono.just(END)), pings)
                        .takeWhile(event -> event != END))
                .doFinally(signal -> sessions.remove(session));
    }

    /** POST ?sessionId=: 202 once the key and the session agree; the answer goes to the session's stream. */
    public Mono<ServerResponse> post(ServerRequest request) {
        return Mono.defer(() -> {
            origins.check(request);
            ApiKeyCredential key = ApiKeyCredential.from(request);
            McpSseSession session = session(request, key);
            session.touch();
            String agentId = Optional.ofNullable(request.headers().firstHeader(McpGateHandler.AGENT_HEADER))
                    .orElse(session.agentId());
            McpCaller caller = new McpCaller(key, agentId, CorrelationIds.of(request), IdempotencyKeys.of(request).orElse(null))
                    .withClient(session.client());
            return gate.body(request).flatMap(body -> {
                // a 2026-07-28 request here too is checked before anything else, and refused on the POST itself
                McpRequestMetadata.Checked checked = McpRequestMetadata.check(request.headers().asHttpHeaders(), body);
                if (checked.refusal() != null) {
                    return gate.refused(checked.refusal(), caller.correlationId());
                }
                return keys.check(key, agentId, caller.correlationId()).then(Mono.defer(() -> {
                    answerLater(session, caller, body);
                    return ServerResponse.accepted().build();
                }));
            });
        });
    }

    private McpSseSession session(ServerRequest request, ApiKeyCredential key) {
        UUID id;
        try {
            id = UUID.fromString(request.queryParam(SESSION_PARAM).orElse(""));
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound(UNKNOWN_SESSION);
        }
        McpSseSession session = sessions.find(id).orElseThrow(() -> ApiException.notFound(UNKNOWN_SESSION));
        if (!session.belongsTo(key)) {
            throw ApiException.forbidden(OTHER_KEY);
        }
        return session;
    }

    /** Runs the request detached from the POST (already answered 202) and queues its response on the stream. */
    private void answerLater(McpSseSession session, McpCaller caller, Optional<JsonNode> body) {
        // the upstream's notifications about the request (progress) go to the stream as they come, before its answer
        gate.responseTo(caller.withNotifications(session::offer), body)
                .onErrorResume(failure -> Mono.justOrEmpty(errorAnswer(body, failure, caller.correlationId())))
                .subscribe(answer -> {
                    if (!session.offer(answer)) {
                        log.warn("MCP event stream {} closed: the client does not read its answers", session.id());
                    }
                });
    }

    /** A failure the POST could not report any more (a key the decision stream refused): a JSON-RPC error on the stream. */
    private static Optional<JsonNode> errorAnswer(Optional<JsonNode> body, Throwable failure, String correlationId) {
        JsonNode id = body.filter(JsonNode::isObject).map(JsonRpcRequest::idOf).orElse(null);
        if (id == null || id.isNull()) {
            return Optional.empty();
        }
        JsonRpcError error = McpGateHandler.isUnauthorized(failure)
                ? new JsonRpcError(JsonRpcError.INTERNAL_ERROR, ErrorMessages.INVALID_API_KEY)
                : McpGateHandler.asRpcError(failure, correlationId);
        return Optional.of(JsonRpcMessages.error(id, error));
    }
}
