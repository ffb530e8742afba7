package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.McpGateMethods;
import io.agentgateway.mcpgate.McpKeys;
import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcMessages;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.upstream.McpServerRequests;
import io.agentgateway.mcpgate.upstream.McpUpstreamCall;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.httpedge.limits.RequestRateLimits;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.RequestBodies;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * POST /functions/v1/mcp-gate/sse (spec 4.3): one JSON-RPC 2.0 request, notification or batch per
 * POST, answered as JSON. This is also what the Streamable HTTP transport of real MCP clients needs
 * (a server may answer a POST with JSON; a notification gets 202).
 *
 * <p>The key: a malformed one is a 401 at once. A lone {@code tools/call} is checked by the decision
 * stream on its EvaluateAction (scope mcp, in log order with revocations); every other body by a
 * {@code check_access} through the stream ({@link McpKeys}), which also confirms the mcp connection.
 * A bad key is an HTTP 401 with the JSON error body, not a JSON-RPC error.
 *
 * <p>A 2026-07-28 request is checked before anything else, the key included ({@link McpRequestMetadata}): its routing
 * headers against its body, its version and its {@code _meta}; a refusal is that revision's JSON-RPC error with its
 * HTTP status (400), counted ({@link McpRefusals}), and nothing else is done with the request. Its answers have that
 * revision's statuses too (404 for -32601, 400 for -32021); it has no session, so an {@code Mcp-Session-Id} on it is
 * ignored.
 */
@Component
public class McpGateHandler {
    public static final String PATH = "/functions/v1/mcp-gate/sse";
    static final String AGENT_HEADER = "X-Agent-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    private static final Logger log = LoggerFactory.getLogger(McpGateHandler.class);
    /** Methods whose evaluation in the decision stream checks the key itself. */
    private static final Set<String> DECIDED = Set.of("tools/call", "tools/list", "resources/read", "prompts/get");

    static final String UNKNOWN_SESSION = "Unknown or expired MCP session; initialize a new one";
    static final String JSON_ONLY = "Content-Type must be application/json";

    private final McpKeys keys;
    private final McpGateMethods methods;
    private final McpSessionIds sessionIds;
    private final McpOrigins origins;
    private final McpClientSessions clientSessions;
    private final McpServerRequests serverRequests;
    private final McpRefusals refusals;
    private final RequestRateLimits rateLimits;
    private final int maxBytes;
    private final int maxBatchSize;

    McpGateHandler(McpKeys keys, McpGateMethods methods, RequestRateLimits rateLimits,
                   IngressProperties properties, McpGateProperties gate, McpSessionIds sessionIds, McpOrigins origins,
                   McpClientSessions clientSessions, McpServerRequests serverRequests, McpRefusals refusals) {
        this.clientSessions = clientSessions;
        this.refusals = refusals;
        this.serverRequests = serverRequests;
        this.keys = keys;
        this.methods = methods;
        this.sessionIds = sessionIds;
        this.origins = origins;
        this.rateLimits = rateLimits;
        this.maxBytes = properties.maxBodyBytes();
        this.maxBatchSize = gate.maxBatchSize();
    }

    public Mono<ServerResponse> post(ServerRequest request) {
        return Mono.defer(() -> {
            origins.check(request);
            requireJson(request);
            McpCaller caller = new McpCaller(ApiKeyCredential.from(request),
                    request.headers().firstHeader(AGENT_HEADER), CorrelationIds.of(request),
                    IdempotencyKeys.of(request).orElse(null))
                    .withVersionHeader(request.headers().firstHeader(VERSION_HEADER));
            // a 2026-07-28 request has no session ("An Mcp-Session-Id header on a request: ignore it")
            String session = McpRequestMetadata.statelessHeader(request.headers().asHttpHeaders()) ? null
                    : request.headers().firstHeader(McpSessionIds.HEADER);
            if (session != null) {
                // not ours, altered, or another key's: the transport's answer for a session the server does not know
                McpSessionIds.State state = sessionIds.state(session, caller.key())
                        .orElseThrow(() -> ApiException.notFound(UNKNOWN_SESSION));
                McpClientSession client = clientSessions.of(caller.key().workspaceId(), session, state.capabilities());
                // the version its initialize negotiated decides whether its calls may be tasks (McpRevisions)
                client.negotiated(state.protocolVersion());
                caller = caller.withClient(client);
            }
            McpCaller from = caller;
            boolean events = acceptsEvents(request);
            return body(request).flatMap(body -> {
                McpRequestMetadata.Checked checked = McpRequestMetadata.check(request.headers().asHttpHeaders(), body);
                if (checked.refusal() != null) {
                    return refused(checked.refusal(), from.correlationId());
                }
                return checkedKey(from, body).then(events && streamable(body)
                        ? stream(from, body, checked.stateless()) : answer(from, body, session, checked.stateless()));
            });
        });
    }

    /**
     * A request refused before anything was done with it: the JSON-RPC error (with {@code data.correlationId}) and
     * its HTTP status; no {@code id} when the request had none to echo (2026-07-28's error responses omit it).
     */
    Mono<ServerResponse> refused(McpRequestMetadata.Refusal refusal, String correlationId) {
        JsonRpcError error = refusal.error();
        refusals.count(refusal.reason(), correlationId, error.getMessage());
        ObjectNode data = error.data() instanceof ObjectNode given ? given.deepCopy() : IngressJson.RESPONSES.createObjectNode();
        ObjectNode answer = JsonRpcMessages.error(refusal.id(), error.withData(data.put("correlationId", correlationId)));
        if (refusal.id() == null) {
            answer.remove("id");
        }
        return ServerResponse.status(refusal.status()).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(answer));
    }

    /** A 2026-07-28 answer as JSON with the status that revision gives it; an error status is counted as a refusal. */
    private Mono<ServerResponse> statelessJson(JsonNode answer, String correlationId) {
        HttpStatus status = McpRequestMetadata.statusOf(answer);
        if (status != HttpStatus.OK) {
            JsonNode error = answer.path("error");
            refusals.count(McpRequestMetadata.reasonOf(error.path("code").asInt()), correlationId,
                    error.path("message").asString(""));
        }
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(answer));
    }

    /** Whether the client named text/event-stream in Accept (Streamable HTTP clients do), not just a wildcard. */
    private static boolean acceptsEvents(ServerRequest request) {
        return request.headers().accept().stream()
                .anyMatch(type -> !type.isWildcardType() && type.isCompatibleWith(MediaType.TEXT_EVENT_STREAM));
    }

    /** A lone request other than initialize (whose answer opens the session, as JSON): answered as an event stream. */
    private static boolean streamable(Optional<JsonNode> body) {
        return body.isPresent() && body.get().isObject() && body.get().hasNonNull("id")
                && body.get().path("method").isString() && !"initialize".equals(body.get().path("method").asString());
    }

    /**
     * The Streamable HTTP answer as an event stream: the upstream's notifications about the request
     * (progress, with the client's token) as they come, then the response, then the end of the stream.
     */
    private Mono<ServerResponse> stream(McpCaller caller, Optional<JsonNode> body, boolean stateless) {
        boolean progress = body.get().path("params").path("_meta").has("progressToken");
        if (stateless && !(progress && "tools/call".equals(body.get().path("method").asString()))) {
            // 2026-07-28, and no progress a tools/call could bring: one answer, an event unless it is a refusal,
            // which has its HTTP status and so is JSON
            return responseTo(caller, body).flatMap(answer -> McpRequestMetadata.statusOf(answer) == HttpStatus.OK
                    ? events(Flux.just(answer)) : statelessJson(answer, caller.correlationId()));
        }
        if ((caller.client() == null || !caller.client().mayReceiveUnasked()) && !progress) {
            // nothing can come before the response (no progress asked for, and nothing the upstream may send
            // unasked reaches this client): one event, without the machinery for notifications
            return events(responseTo(caller, body).flux());
        }
        Sinks.Many<JsonNode> notes = Sinks.many().unicast().onBackpressureBuffer();
        Consumer<JsonNode> toStream = note -> {
            synchronized (notes) { // notifications arrive on the upstream client's threads
                notes.tryEmitNext(note);
            }
        };
        McpCaller listening = caller.withNotifications(toStream);
        Mono<JsonNode> response = responseTo(listening, body).doFinally(signal -> {
            synchronized (notes) {
                notes.tryEmitComplete();
            }
        });
        // live: each notification is written as it comes. A refused key (401) fails before the first event,
        // while the response is not committed yet, so it is still answered as the HTTP error it is
        Flux<JsonNode> messages = Flux.merge(notes.asFlux(), response);
        if (caller.client() != null) {
            // while it is open, this stream carries what the client session's upstream session initiates
            // (requests to the client, logging and list_changed notifications)
            Flux<JsonNode> live = messages;
            messages = Flux.using(() -> caller.client().openStream(toStream), open -> live, Runnable::run);
        }
        return events(messages);
    }

    private static Mono<ServerResponse> events(Flux<JsonNode> messages) {
        return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM).header("Cache-Control", "no-store")
                .body(messages.map(message -> ServerSentEvent.<String>builder().event("message")
                        .data(IngressJson.RESPONSES.writeValueAsString(message)).build()), ServerSentEvent.class);
    }

    /** A body that says what it is must say JSON (docs/reference/mcp-gate.md: 415); none at all is read as JSON. */
    private static void requireJson(ServerRequest request) {
        MediaType type = request.headers().contentType().orElse(null);
        if (type != null && !MediaType.APPLICATION_JSON.isCompatibleWith(type) && !type.getSubtype().endsWith("+json")) {
            throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, JSON_ONLY);
        }
    }

    private Mono<ServerResponse> answer(McpCaller caller, Optional<JsonNode> body, String session, boolean stateless) {
        return responseTo(caller, body).flatMap(answer -> stateless ? statelessJson(answer, caller.correlationId())
                        : json(answer, session == null ? newSession(caller, body, answer) : Optional.empty()))
                .switchIfEmpty(Mono.defer(() -> ServerResponse.accepted().build()));
    }

    /** An initialize answered with a result opens a session: its id carries the negotiated version. */
    private Optional<String> newSession(McpCaller caller, Optional<JsonNode> body, JsonNode answer) {
        JsonNode version = answer.isObject() ? answer.at("/result/protocolVersion") : null;
        boolean initialized = version != null && version.isString() && answer.at("/result/serverInfo").isObject();
        // the client capabilities the gate relays (elicitation, sampling, roots) travel in the id, for every replica
        return initialized ? sessionIds.issue(caller.key(), version.asString(), McpClientSession.relayedCapabilities(
                body.map(request -> request.at("/params/capabilities")).orElse(null))) : Optional.empty();
    }

    /**
     * The JSON-RPC response to a body (an object, or an array for a batch), empty when there is nothing
     * to answer (notifications only). Shared by both client transports: the POST answers it in its own
     * body, the HTTP+SSE transport on the session's event stream. The key is checked by the caller.
     */
    Mono<JsonNode> responseTo(McpCaller caller, Optional<JsonNode> body) {
        if (body.isEmpty()) {
            return Mono.just(JsonRpcMessages.error(null, new JsonRpcError(JsonRpcError.PARSE_ERROR, "Parse error: the body is not JSON")));
        }
        JsonNode node = body.get();
        if (node.isArray()) {
            if (node.isEmpty()) {
                return Mono.just(JsonRpcMessages.error(null, new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid request: empty batch")));
            }
            if (node.size() > maxBatchSize) {
                // one answer for the whole batch and nothing run: a batch is no way to multiply the work of a request
                return Mono.just(JsonRpcMessages.error(null, new JsonRpcError(JsonRpcError.INVALID_REQUEST,
                        "Invalid request: a batch may hold at most " + maxBatchSize + " messages")));
            }
            List<JsonNode> elements = new ArrayList<>();
            node.forEach(elements::add);
            // answered in order, one at a time: a batch is not a way around the per-call decision order
            return Flux.fromIterable(elements).concatMap(element -> one(caller, element))
                    .collectList()
                    .flatMap(answers -> {
                        if (answers.isEmpty()) {
                            return Mono.empty();
                        }
                        ArrayNode array = IngressJson.RESPONSES.createArrayNode();
                        answers.forEach(array::add);
                        return Mono.just(array);
                    });
        }
        return one(caller, node);
    }

    /** The response object for one element, empty for a notification (even a failing one: it has no id to answer). */
    private Mono<JsonNode> one(McpCaller caller, JsonNode element) {
        if (isResponse(element)) {
            // the client's answer to a request an upstream sent it through the gate: not an action, nothing to decide
            serverRequests.answer(caller.client(), element);
            return Mono.empty();
        }
        JsonRpcRequest request;
        try {
            request = JsonRpcRequest.parse(element);
        } catch (JsonRpcError invalid) {
            return Mono.just(JsonRpcMessages.error(JsonRpcRequest.idOf(element), invalid));
        }
        return cancellable(caller, request)
                .<JsonNode>map(result -> JsonRpcMessages.result(request.id(), result))
                .onErrorResume(failure -> isUnauthorized(failure)
                        ? Mono.error(failure)
                        : request.isNotification() ? Mono.empty()
                        : Mono.just(JsonRpcMessages.error(request.id(), asRpcError(failure, caller.correlationId()))));
    }

    /** A JSON-RPC response: an id, a result or an error, and no method. */
    private static boolean isResponse(JsonNode element) {
        return element.isObject() && !element.has("method") && element.hasNonNull("id")
                && (element.has("result") || element.has("error"));
    }

    /**
     * A request of a client session, cancellable by the client's {@code notifications/cancelled} while it is in
     * progress on this replica: the client is then sent no response, and a request that went upstream is
     * cancelled there too (the {@link McpUpstreamCall} in its context names it).
     */
    private Mono<JsonNode> cancellable(McpCaller caller, JsonRpcRequest request) {
        McpClientSession session = caller.client();
        if (session == null || request.isNotification() || "initialize".equals(request.method())) {
            return methods.answer(caller, request);
        }
        McpUpstreamCall call = new McpUpstreamCall();
        Sinks.One<Boolean> cancelled = Sinks.one();
        return Mono.defer(() -> {
            Runnable forget = session.inFlight(request.id(), () -> {
                call.cancelUpstream("cancelled by the client");
                cancelled.tryEmitValue(Boolean.TRUE);
            });
            return methods.answer(caller, request).takeUntilOther(cancelled.asMono()).doFinally(signal -> forget.run());
        }).contextWrite(context -> context.put(McpUpstreamCall.KEY, call));
    }

    static boolean isUnauthorized(Throwable failure) {
        return failure instanceof ApiException api && api.status() == HttpStatus.UNAUTHORIZED;
    }

    /**
     * As {@link #asRpcError(Throwable)}; an upstream failure's cause is logged here with the correlation id
     * (the answer never carries it) and the answer's data names that id.
     */
    static JsonRpcError asRpcError(Throwable failure, String correlationId) {
        JsonRpcError error = asRpcError(failure);
        if (error.detail() == null) {
            return error;
        }
        // the upstream's failures (-32002) and the gate's own (-32603: its task records unreadable) say which they are
        log.warn("[{}] {}: {}", correlationId, error.code() == JsonRpcError.UPSTREAM_FAILED ? "MCP upstream failure"
                : "MCP gate failure", error.detail());
        ObjectNode data = error.data() instanceof ObjectNode given ? given.deepCopy() : IngressJson.RESPONSES.createObjectNode();
        return error.withData(data.put("correlationId", correlationId));
    }

    static JsonRpcError asRpcError(Throwable failure) {
        if (failure instanceof JsonRpcError rpc) {
            return rpc;
        }
        if (failure instanceof DecisionServiceUnavailableException) {
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, ErrorMessages.UNAVAILABLE);
        }
        if (failure instanceof DecisionTimeoutException) {
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, ErrorMessages.TIMED_OUT);
        }
        if (failure instanceof ApiException api) {
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, api.getMessage());
        }
        log.error("MCP gate request failed", failure);
        return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, ErrorMessages.INTERNAL);
    }

    /** A lone tools/call is left to the decision stream; every other body is checked here (empty Mono: the key is fine). */
    private Mono<Void> checkedKey(McpCaller caller, Optional<JsonNode> body) {
        boolean loneToolCall = body.isPresent() && body.get().isObject()
                && body.get().path("method").isString() && DECIDED.contains(body.get().path("method").asString())
                && body.get().has("id") && !body.get().get("id").isNull();
        return loneToolCall ? Mono.empty() : keys.check(caller.key(), caller.agentId(), caller.correlationId()).then();
    }

    /**
     * The body as JSON, empty when it is not JSON (a parse error); bounded by gateway.ingress.max-body-bytes (413).
     * Each further message of a batch counts as one more request for the key's rate limits (429).
     */
    Mono<Optional<JsonNode>> body(ServerRequest request) {
        return RequestBodies.bytes(request, maxBytes)
                .map(McpGateHandler::parse)
                .doOnNext(body -> body.filter(JsonNode::isArray).filter(batch -> batch.size() <= maxBatchSize)
                        .ifPresent(batch -> rateLimits.charge(ApiKeyCredential.from(request), batch.size() - 1)));
    }

    private static Optional<JsonNode> parse(byte[] bytes) {
        try {
            return bytes.length == 0 ? Optional.empty() : Optional.of(IngressJson.REQUESTS.readTree(bytes));
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    private Mono<ServerResponse> json(JsonNode body, Optional<String> session) {
        ServerResponse.BodyBuilder ok = ServerResponse.ok().contentType(MediaType.APPLICATION_JSON);
        session.ifPresent(id -> ok.header(McpSessionIds.HEADER, id));
        return ok.bodyValue(IngressJson.RESPONSES.writeValueAsBytes(body));
    }
}
