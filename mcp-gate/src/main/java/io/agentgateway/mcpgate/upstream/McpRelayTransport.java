package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The transport of one upstream session, around the SDK's: what the upstream initiates for the client
 * session that owns the upstream session is taken here, as JSON, before the SDK client sees it, and
 * relayed to that client as it is ({@code elicitation/create}, {@code sampling/createMessage},
 * {@code roots/list} through {@link McpServerRequests}; {@code notifications/message}, the list_changed
 * notifications and {@code notifications/resources/updated} to the client's stream;
 * {@code notifications/cancelled} about a relayed request to the client with the gate's id). Relaying raw
 * JSON, rather than through the SDK's handlers, keeps what the SDK's types do not know, and answers
 * {@code roots/list} with the client's roots (the SDK client answers it from a fixed list of its own).
 * A gate-owned session (no client: held calls, clients without a session id) relays nothing: it declared
 * no client capabilities, and the SDK answers and logs whatever comes as it would.
 *
 * <p>Outgoing requests are recorded on the {@link McpUpstreamCall} of their Reactor context, if any.
 */
final class McpRelayTransport implements McpClientTransport {
    static final Set<String> SERVER_REQUESTS = Set.of(McpSchema.METHOD_ELICITATION_CREATE,
            McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, McpSchema.METHOD_ROOTS_LIST);
    static final Set<String> CLIENT_NOTIFICATIONS = Set.of("notifications/message", "notifications/tools/list_changed",
            "notifications/resources/list_changed", "notifications/prompts/list_changed", "notifications/resources/updated");
    static final String CANCELLED = "notifications/cancelled";

    private final McpClientTransport delegate;
    private final McpClientSession client;
    private final McpServerRequests requests;

    /** @param client the client session the upstream session belongs to; null for a gate-owned session */
    McpRelayTransport(McpClientTransport delegate, McpClientSession client, McpServerRequests requests) {
        this.delegate = delegate;
        this.client = client;
        this.requests = requests;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        if (client == null) {
            return delegate.connect(handler);
        }
        return delegate.connect(incoming -> incoming.flatMap(message -> relayed(message) ? Mono.empty()
                : handler.apply(Mono.just(message))));
    }

    /** Whether the message was the client's to have (and went its way). */
    private boolean relayed(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request && SERVER_REQUESTS.contains(request.method())) {
            String refused = switch (requests.relay(this, client, request)) {
                case RELAYED -> null;
                case NO_STREAM -> "The client has no exchange open with the MCP gate that could carry " + request.method()
                        + " (the gate relays it on the event stream of a request in progress)";
                case TOO_MANY -> "The client has too many outstanding requests from this MCP server (the MCP gate keeps at most "
                        + requests.maxPerSession() + " per client session waiting for an answer); " + request.method()
                        + " was not forwarded";
            };
            if (refused != null) {
                sendMessage(McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
                        McpSchema.ErrorCodes.INTERNAL_ERROR, refused, null)))
                        .onErrorResume(failure -> Mono.empty()).subscribe();
            }
            return true;
        }
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            if (CLIENT_NOTIFICATIONS.contains(notification.method())) {
                client.deliver(notification(notification.method(), notification.params()));
                return true;
            }
            if (CANCELLED.equals(notification.method()) && notification.params() instanceof Map<?, ?> params) {
                return requests.cancelledByUpstream(this, params.get("requestId"), params.get("reason"));
            }
        }
        return false;
    }

    static ObjectNode notification(String method, Object params) {
        ObjectNode message = IngressJson.RESPONSES.createObjectNode();
        message.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        message.put("method", method);
        if (params != null) {
            message.set("params", params instanceof JsonNode node ? node : GatewayJson.MAPPER.valueToTree(params));
        }
        return message;
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCRequest request)) {
            return delegate.sendMessage(message);
        }
        return Mono.deferContextual(context -> {
            McpUpstreamCall call = context.getOrDefault(McpUpstreamCall.KEY, null);
            if (call != null && !McpSchema.METHOD_INITIALIZE.equals(request.method())) { // initialize is never cancelled
                call.sent(this, request.id());
            }
            return delegate.sendMessage(message);
        });
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
