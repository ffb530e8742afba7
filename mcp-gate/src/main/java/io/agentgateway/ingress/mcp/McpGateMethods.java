package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.schemas.GatewayJson;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The methods the gate answers (spec 4.3): initialize and ping itself; tools/call, tools/list (the upstream's list
 * cached, what it offers decided each time), resources/read and prompts/get after a decision
 * ({@link McpToolCallGate}); resources/*, prompts/list, completion/complete and logging/setLevel relayed to the
 * upstream as they are (on the client session's upstream session). Of the client's notifications,
 * {@code notifications/cancelled} cancels the request it names (upstream too) and
 * {@code notifications/roots/list_changed} is passed on; the others are accepted and not passed on. Returns the
 * result member, empty for a notification.
 */
@Component
class McpGateMethods {
    /** Spec 4.3's version: the answer when the client names none (the spec's exchange sends no params). */
    static final String PROTOCOL_VERSION = "2024-11-05";
    /**
     * Versions the gate also speaks (its methods are the same in each). MCP version negotiation: a
     * server answers with the version the client asked for when it supports it; real Streamable HTTP
     * clients ask for 2025-03-26 or later and refuse a server that answers 2024-11-05.
     */
    static final java.util.Set<String> SUPPORTED_VERSIONS = java.util.Set.of(PROTOCOL_VERSION, "2025-03-26",
            "2025-06-18", "2025-11-25");

    /** The answer to a client that asks for a version the gate does not speak: the latest it does (MCP negotiation). */
    static final String LATEST_VERSION = "2025-11-25";

    private final McpToolCallGate toolCalls;
    private final McpUpstreamCalls calls;
    private final McpUpstreamClients clients;

    McpGateMethods(McpToolCallGate toolCalls, McpUpstreamCalls calls, McpUpstreamClients clients) {
        this.toolCalls = toolCalls;
        this.calls = calls;
        this.clients = clients;
    }

    Mono<JsonNode> answer(McpCaller caller, JsonRpcRequest request) {
        if (request.isNotification()) {
            // nothing to answer (and no id to answer with)
            McpClientSession session = caller.client();
            if (session != null && "notifications/cancelled".equals(request.method()) && request.params() != null) {
                session.cancel(request.params().get("requestId"));
            } else if (session != null && "notifications/roots/list_changed".equals(request.method())
                    && session.capabilities().has("roots")) {
                clients.notifyUpstream(session, request.method());
            }
            return Mono.empty();
        }
        UUID workspaceId = caller.key().workspaceId();
        return switch (request.method()) {
            case "initialize" -> {
                if (caller.client() != null) {
                    // an HTTP+SSE client initializes on its open session (a Streamable HTTP one gets a new sealed id)
                    caller.client().declare(McpClientSession.relayedCapabilities(
                            request.params() == null ? null : request.params().get("capabilities")));
                }
                yield initializeResult(workspaceId, request.params()).map(JsonNode.class::cast);
            }
            case "ping" -> Mono.just(IngressJson.RESPONSES.createObjectNode());
            case "tools/call" -> toolCalls.call(caller, request.params(), String.valueOf(request.id()));
            case "tools/list" -> toolCalls.list(caller, request.params(), String.valueOf(request.id()));
            case "resources/read", "prompts/get" ->
                    toolCalls.decided(caller, request.method(), request.params(), String.valueOf(request.id()));
            default -> McpUpstreamCalls.RELAYED.contains(request.method())
                    ? calls.upstream(workspaceId).flatMap(upstream -> calls.relay(upstream, request.method(), request.params(),
                            caller.client()))
                            .map(JsonNode.class::cast)
                    : Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method()));
        };
    }

    /**
     * The version the client asked for when the gate speaks it, else the latest; no version at all (spec
     * 4.3's exchange) gets 2024-11-05. The capabilities are the upstream's (what the gate relays), tools
     * only when the upstream cannot be asked.
     */
    private Mono<ObjectNode> initializeResult(UUID workspaceId, ObjectNode params) {
        JsonNode asked = params == null ? null : params.get("protocolVersion");
        String version = asked == null || !asked.isString() ? PROTOCOL_VERSION
                : SUPPORTED_VERSIONS.contains(asked.asString()) ? asked.asString() : LATEST_VERSION;
        return calls.upstream(workspaceId)
                .flatMap(upstream -> clients.request(upstream, "initialize", client -> Mono.justOrEmpty(client.getServerCapabilities())))
                .map(capabilities -> (ObjectNode) GatewayJson.MAPPER.valueToTree(capabilities))
                .onErrorResume(unreachable -> Mono.empty())
                .defaultIfEmpty(toolsOnly())
                .map(capabilities -> {
                    ObjectNode result = IngressJson.RESPONSES.createObjectNode();
                    result.put("protocolVersion", version);
                    result.set("capabilities", capabilities);
                    result.putObject("serverInfo").put("name", "service-mcp-gate").put("version", "1.0.0");
                    return result;
                });
    }

    private static ObjectNode toolsOnly() {
        ObjectNode capabilities = IngressJson.RESPONSES.createObjectNode();
        capabilities.putObject("tools").put("listChanged", false);
        return capabilities;
    }
}
