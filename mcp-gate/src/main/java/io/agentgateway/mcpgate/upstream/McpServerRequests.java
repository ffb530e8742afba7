package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests an upstream sent to a client through the gate ({@code elicitation/create},
 * {@code sampling/createMessage}, {@code roots/list}) that the client has not answered yet. The client sees
 * each under an id of the gate's own (upstream ids of different upstream sessions could collide, and a
 * client must not be able to answer another session's request); its answer goes back to the upstream
 * session that asked, with the upstream's id. These are not agent actions: the upstream asks the client
 * for input while a decided call runs; nothing here reaches a tool, so nothing is evaluated.
 *
 * <p>Held by the replica that relayed the request: a client's answer that reaches another replica is not
 * known there (dropped, logged at DEBUG) and the upstream's request ends at its own timeout. A request
 * nobody answered is forgotten after {@code gateway.mcp.server-request-timeout}.
 *
 * <p>Bounded per client session ({@code gateway.mcp.max-server-requests-per-session}): an upstream (configured by
 * the workspace's admin, or compromised) that asks more of a client that does not answer could otherwise fill
 * this replica's memory for the length of the timeout. One over the bound is answered to the upstream at once
 * with an error and never reaches the client; the refusal is logged at WARN at most once a minute per session.
 */
@Component
public class McpServerRequests {
    private static final Logger log = LoggerFactory.getLogger(McpServerRequests.class);
    private static final String PREFIX = "gate-";
    private static final Duration REFUSAL_LOG_INTERVAL = Duration.ofMinutes(1);

    private record Pending(McpRelayTransport upstream, Object upstreamId, McpClientSession client) {}

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Duration timeout;
    private final int maxPerSession;

    McpServerRequests(McpGateProperties properties) {
        this.timeout = properties.serverRequestTimeout();
        this.maxPerSession = properties.maxServerRequestsPerSession();
    }

    /** What became of a request an upstream sent to a client. */
    enum Relayed {
        /** on its way to the client, waiting here for the answer */
        RELAYED,
        /** no open stream of the client could take it */
        NO_STREAM,
        /** the client session has {@code gateway.mcp.max-server-requests-per-session} waiting already */
        TOO_MANY
    }

    /** @return whether the client's stream took the request, or why not (then nothing reached the client) */
    Relayed relay(McpRelayTransport upstream, McpClientSession client, McpSchema.JSONRPCRequest request) {
        if (!client.openServerRequest(maxPerSession)) {
            if (client.logServerRequestRefusal(REFUSAL_LOG_INTERVAL)) {
                log.warn("An upstream MCP server sent {} while {} of its requests to the same client session wait for the "
                        + "client's answer (gateway.mcp.max-server-requests-per-session): refused with an error to the upstream, "
                        + "as are further ones while the client does not answer (logged at most once a minute per session)",
                        request.method(), maxPerSession);
            }
            return Relayed.TOO_MANY;
        }
        String id = PREFIX + UUID.randomUUID();
        Pending asked = new Pending(upstream, request.id(), client);
        pending.put(id, asked);
        ObjectNode message = McpRelayTransport.notification(request.method(), request.params());
        message.put("id", id);
        if (!client.deliver(message)) {
            closed(id, asked);
            return Relayed.NO_STREAM;
        }
        Mono.delay(timeout).subscribe(tick -> closed(id, asked));
        return Relayed.RELAYED;
    }

    /** Forgets a request (answered, cancelled, timed out) once: its place in the client's bound is free again. */
    private boolean closed(String id, Pending asked) {
        if (pending.remove(id, asked)) {
            asked.client().serverRequestClosed();
            return true;
        }
        return false;
    }

    int maxPerSession() {
        return maxPerSession;
    }

    /**
     * A JSON-RPC response the client posted: goes to the upstream that asked, when the request is this
     * client session's and still open here.
     */
    public void answer(McpClientSession client, JsonNode response) {
        JsonNode id = response.get("id");
        Pending asked = id != null && id.isString() ? pending.get(id.asString()) : null;
        if (asked == null || client == null || !asked.client().id().equals(client.id())) {
            log.debug("a client answered MCP request {}, which this replica did not relay to its session", id);
            return;
        }
        closed(id.asString(), asked);
        JsonNode error = response.get("error");
        McpSchema.JSONRPCResponse upstreamAnswer = error != null && error.isObject()
                ? McpSchema.JSONRPCResponse.error(asked.upstreamId(), new McpSchema.JSONRPCResponse.JSONRPCError(
                        error.path("code").asInt(McpSchema.ErrorCodes.INTERNAL_ERROR), error.path("message").asString(""),
                        error.has("data") ? GatewayJson.MAPPER.convertValue(error.get("data"), Object.class) : null))
                : McpSchema.JSONRPCResponse.result(asked.upstreamId(),
                        GatewayJson.MAPPER.convertValue(response.has("result") ? response.get("result")
                                : IngressJson.RESPONSES.createObjectNode(), Object.class));
        asked.upstream().sendMessage(upstreamAnswer).subscribe(ignored -> {}, failure ->
                log.debug("the answer to upstream MCP request {} could not be sent", asked.upstreamId(), failure));
    }

    /** The upstream cancelled a request it sent: the client is told, with the gate's id. @return whether it was one relayed here */
    boolean cancelledByUpstream(McpRelayTransport upstream, Object upstreamId, Object reason) {
        for (var entry : pending.entrySet()) {
            Pending asked = entry.getValue();
            if (asked.upstream() == upstream && String.valueOf(asked.upstreamId()).equals(String.valueOf(upstreamId))
                    && closed(entry.getKey(), asked)) {
                ObjectNode params = IngressJson.RESPONSES.createObjectNode().put("requestId", entry.getKey());
                if (reason != null) {
                    params.put("reason", String.valueOf(reason));
                }
                asked.client().deliver(McpRelayTransport.notification(McpRelayTransport.CANCELLED, params));
                return true;
            }
        }
        return false;
    }

    /** The client session ended: its open requests are forgotten (the upstream's end at its timeout). */
    void forget(McpClientSession client) {
        pending.forEach((id, asked) -> {
            if (asked.client() == client) {
                closed(id, asked);
            }
        });
    }
}
