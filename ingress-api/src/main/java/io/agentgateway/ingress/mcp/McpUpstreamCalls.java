package io.agentgateway.ingress.mcp;

import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} and {@code tools/call} against a workspace's upstream MCP server, through the
 * official SDK client, with SDK objects turned into JSON. Failures come out as {@link JsonRpcError}s
 * whose message says the upstream failed (never an HTTP 500); an error the upstream answered with is
 * {@link UpstreamRefused} so that callers can tell "answered no" from "no answer".
 */
@Component
class McpUpstreamCalls {
    private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {};
    private static final int MAX_UPSTREAM_MESSAGE_CHARS = 500;

    private final McpUpstreams upstreams;
    private final McpUpstreamClients clients;

    McpUpstreamCalls(McpUpstreams upstreams, McpUpstreamClients clients) {
        this.upstreams = upstreams;
        this.clients = clients;
    }

    /** The workspace's upstream as the connection view holds it now (see {@link McpUpstreams}). */
    Mono<McpUpstream> upstream(UUID workspaceId) {
        return Mono.fromCallable(() -> upstreams.current(workspaceId));
    }

    Mono<ObjectNode> listTools(McpUpstream upstream) {
        return clients.clientFor(upstream)
                .flatMap(client -> client.listTools())
                .map(result -> (ObjectNode) GatewayJson.MAPPER.valueToTree(result))
                .onErrorMap(failure -> asRpcError("tools/list", failure));
    }

    /** Sends the call once; no retry (an approved held call must reach the upstream at most once). */
    Mono<ObjectNode> callTool(McpUpstream upstream, String name, JsonNode arguments) {
        Map<String, Object> args = arguments == null ? Map.of() : GatewayJson.MAPPER.convertValue(arguments, ARGUMENTS);
        return clients.clientFor(upstream)
                .flatMap(client -> client.callTool(new McpSchema.CallToolRequest(name, args)))
                .map(result -> (ObjectNode) GatewayJson.MAPPER.valueToTree(result))
                .onErrorMap(failure -> asRpcError("tools/call", failure));
    }

    private static Throwable asRpcError(String method, Throwable failure) {
        if (failure instanceof JsonRpcError) {
            return failure;
        }
        if (failure instanceof McpError error && error.getJsonRpcError() != null) {
            var answered = error.getJsonRpcError();
            return new UpstreamRefused(answered.code(), "The upstream MCP server answered " + method
                    + " with an error: " + cut(answered.message()), answered.data() == null ? null
                    : GatewayJson.MAPPER.valueToTree(answered.data()));
        }
        Throwable root = McpError.findRootCause(failure);
        if (root instanceof TimeoutException || failure instanceof TimeoutException) {
            return JsonRpcError.upstream("The upstream MCP server did not answer " + method + " in time");
        }
        // the cause names classes and addresses of our side and the upstream's: for the log, not the caller
        String detail = root.getClass().getName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        return JsonRpcError.upstream("The upstream MCP server could not be reached or failed on " + method
                + " (the gateway log has the cause under the correlation id)", detail);
    }

    /** The upstream's own error text, as it said it, within reason. */
    private static String cut(String message) {
        if (message == null) {
            return "";
        }
        return message.length() <= MAX_UPSTREAM_MESSAGE_CHARS ? message : message.substring(0, MAX_UPSTREAM_MESSAGE_CHARS) + "…";
    }

    /** The upstream answered with a JSON-RPC error: passed on with its own code and data. */
    static final class UpstreamRefused extends JsonRpcError {
        UpstreamRefused(int code, String message, JsonNode data) {
            super(code, message, data);
        }
    }
}
