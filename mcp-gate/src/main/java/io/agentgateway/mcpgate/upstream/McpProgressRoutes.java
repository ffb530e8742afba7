package io.agentgateway.mcpgate.upstream;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Progress notifications from upstreams back to the client request they are about. A request that
 * carries {@code _meta.progressToken} goes upstream with a token of the gate's own (clients of one
 * workspace share an upstream session, and their tokens could collide); the upstream's notifications
 * for that token are handed to the client's exchange with the client's token put back.
 */
@Component
class McpProgressRoutes {
    private final Map<String, Route> routes = new ConcurrentHashMap<>();

    private record Route(JsonNode clientToken, Consumer<JsonNode> to) {}

    /** A new upstream token for the client's; {@link #close} it when the request ended. */
    String open(JsonNode clientToken, Consumer<JsonNode> to) {
        String token = "gate-" + UUID.randomUUID();
        routes.put(token, new Route(clientToken.deepCopy(), to));
        return token;
    }

    void close(String token) {
        routes.remove(token);
    }

    /** For the SDK clients' progress consumer. */
    Mono<Void> deliver(McpSchema.ProgressNotification notification) {
        Route route = notification.progressToken() == null ? null : routes.get(String.valueOf(notification.progressToken()));
        if (route != null) {
            ObjectNode params = (ObjectNode) GatewayJson.MAPPER.valueToTree(notification);
            params.set("progressToken", route.clientToken());
            ObjectNode message = IngressJson.RESPONSES.createObjectNode();
            message.put("jsonrpc", "2.0");
            message.put("method", "notifications/progress");
            message.set("params", params);
            route.to().accept(message);
        }
        return Mono.empty();
    }
}
