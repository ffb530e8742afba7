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
    static final String PROTOCOL_VERSION = "2024-11-05";

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
            case "initialize" -> Mono.just(initializeResult());
            case "ping" -> Mono.just(IngressJson.RESPONSES.createObjectNode());
            case "tools/list" -> toolLists.list(caller.key().workspaceId()).map(JsonNode.class::cast);
            case "tools/call" -> toolCalls.call(caller, request.params());
            default -> Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method()));
        };
    }

    private static ObjectNode initializeResult() {
        ObjectNode result = IngressJson.RESPONSES.createObjectNode();
        result.put("protocolVersion", PROTOCOL_VERSION);
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", "service-mcp-gate").put("version", "1.0.0");
        return result;
    }
}
