package io.agentgateway.mcpgate.upstream;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * A client request as it went upstream: the upstream request id the SDK gave it and the transport it went
 * on, so that the client's {@code notifications/cancelled} can name it upstream. It travels in the Reactor
 * context of the request ({@link #KEY}); the SDK client passes that context to its transport's send
 * ({@link McpRelayTransport} records the id there). The SDK (mcp-core 2.1.0) neither exposes the id nor
 * sends a cancellation itself when a request's subscription is cancelled.
 */
public final class McpUpstreamCall {
    public static final String KEY = McpUpstreamCall.class.getName();

    private volatile McpRelayTransport transport;
    private volatile Object upstreamId;

    void sent(McpRelayTransport on, Object id) {
        this.transport = on;
        this.upstreamId = id;
    }

    /** Tells the upstream that the request was cancelled, when it was sent; nothing otherwise. */
    public void cancelUpstream(String reason) {
        McpRelayTransport on = transport;
        Object id = upstreamId;
        if (on == null || id == null) {
            return;
        }
        Map<String, Object> params = reason == null ? Map.of("requestId", id) : Map.of("requestId", id, "reason", reason);
        on.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled", params))
                .onErrorResume(failure -> Mono.empty()).subscribe();
    }
}
