package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.web.IngressJson;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The methods the gate answers (spec 4.3): initialize, ping, tools/list, tools/call; notifications
 * are accepted and ignored. Returns the result member, empty for a notification.
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

    private final McpToolListCache toolLists;
    private final McpToolCallGate toolCalls;

    McpGateMethods(McpToolListCache toolLists, McpToolCallGate toolCalls) {
        this.toolLists = toolLists;
        this.toolCalls = toolCalls;
    }

    Mono<JsonNode> answer(McpCaller caller, JsonRpcRequest request) {
        if (request.isNotification()) {
            // notifications/initialized, notifications/cancelled, ...: nothing to answer (and no id to answer with)
            return Mono.empty();
        }
        return switch (request.method()) {
            case "initialize" -> Mono.just(initializeResult(request.params()));
            case "ping" -> Mono.just(IngressJson.RESPONSES.createObjectNode());
            case "tools/list" -> toolLists.list(caller.key().workspaceId()).map(JsonNode.class::cast);
            case "tools/call" -> toolCalls.call(caller, request.params(), String.valueOf(request.id()));
            default -> Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method()));
        };
    }

    private static ObjectNode initializeResult(ObjectNode params) {
        JsonNode asked = params == null ? null : params.get("protocolVersion");
        String version = asked != null && asked.isString() && SUPPORTED_VERSIONS.contains(asked.asString())
                ? asked.asString() : PROTOCOL_VERSION;
        ObjectNode result = IngressJson.RESPONSES.createObjectNode();
        result.put("protocolVersion", version);
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", "service-mcp-gate").put("version", "1.0.0");
        return result;
    }
}
