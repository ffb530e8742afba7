package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
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
public class McpUpstreamCalls {
    private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {};
    private static final int MAX_UPSTREAM_MESSAGE_CHARS = 500;

    private final McpUpstreams upstreams;
    private final McpUpstreamClients clients;

    private final McpProgressRoutes progress;

    McpUpstreamCalls(McpUpstreams upstreams, McpUpstreamClients clients, McpProgressRoutes progress) {
        this.upstreams = upstreams;
        this.clients = clients;
        this.progress = progress;
    }

    /** The workspace's upstream as the connection view holds it now (see {@link McpUpstreams}). */
    public Mono<McpUpstream> upstream(UUID workspaceId) {
        return Mono.fromCallable(() -> upstreams.current(workspaceId));
    }

    Mono<ObjectNode> listTools(McpUpstream upstream) {
        return relay(upstream, "tools/list", null);
    }

    /** Sends the call; again only when the upstream's 404 proved the first one did not run (see {@link McpUpstreamClients}). */
    public Mono<ObjectNode> callTool(McpUpstream upstream, String name, JsonNode arguments) {
        return callTool(upstream, name, arguments, null, null, null);
    }

    /**
     * @param progressToken the client's {@code _meta.progressToken}, or null
     * @param notifications where the upstream's progress notifications go (with the client's token), or null
     * @param session the client session whose upstream session takes the call; null: the gate-owned one
     */
    public Mono<ObjectNode> callTool(McpUpstream upstream, String name, JsonNode arguments, JsonNode progressToken,
                              Consumer<JsonNode> notifications, McpClientSession session) {
        Map<String, Object> args = arguments == null ? Map.of() : GatewayJson.MAPPER.convertValue(arguments, ARGUMENTS);
        if (progressToken == null || notifications == null) {
            return clients.request(upstream, session, "tools/call", client -> client.callTool(new McpSchema.CallToolRequest(name, args)))
                    .map(result -> (ObjectNode) GatewayJson.MAPPER.valueToTree(result))
                    .onErrorMap(failure -> asRpcError("tools/call", failure));
        }
        return Mono.using(() -> progress.open(progressToken, notifications),
                token -> clients.request(upstream, session, "tools/call",
                                client -> client.callTool(new McpSchema.CallToolRequest(name, args, Map.of("progressToken", token))))
                        .map(result -> (ObjectNode) GatewayJson.MAPPER.valueToTree(result))
                        .onErrorMap(failure -> asRpcError("tools/call", failure)),
                progress::close);
    }

    /** Whether the workspace has a live initialized session with this upstream (nothing to send to know). */
    public boolean isReady(McpUpstream upstream, McpClientSession session) {
        return clients.isReady(upstream, session);
    }

    /**
     * Completes once the upstream has an initialized session (at once when it has one); the error signal,
     * {@link JsonRpcError#notSent()}, when it cannot be reached.
     */
    public Mono<Void> reachable(McpUpstream upstream, McpClientSession session) {
        return clients.request(upstream, session, "initialize", client -> Mono.just(Boolean.TRUE))
                .onErrorMap(failure -> asRpcError("initialize", failure)).then();
    }

    /** The client-to-server methods the gate passes on as they are (beyond tools/call, which has a decision first). */
    public static final Set<String> RELAYED = Set.of("tools/list", "resources/list", "resources/templates/list",
            "resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get",
            "completion/complete", "logging/setLevel");

    /**
     * One of {@link #RELAYED} sent to the upstream with the client's params, its result as JSON.
     *
     * @throws JsonRpcError -32602 (as the error signal) for params the SDK cannot read
     */
    public Mono<ObjectNode> relay(McpUpstream upstream, String method, ObjectNode params) {
        return relay(upstream, method, params, null);
    }

    /** As {@link #relay(McpUpstream, String, ObjectNode)}, on the client session's upstream session (null: the gate's). */
    public Mono<ObjectNode> relay(McpUpstream upstream, String method, ObjectNode params, McpClientSession session) {
        return Mono.defer(() -> clients.request(upstream, session, method, client -> send(client, method, params)))
                .map(result -> result instanceof ObjectNode object ? object : (ObjectNode) GatewayJson.MAPPER.valueToTree(result))
                .onErrorMap(failure -> asRpcError(method, failure));
    }

    private static Mono<Object> send(io.modelcontextprotocol.client.McpAsyncClient client, String method, ObjectNode params) {
        if (!offered(client.getServerCapabilities(), method)) {
            // what the upstream would answer: the SDK refuses locally, as a failure of our side
            return Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + method
                    + " (the upstream MCP server does not offer it)"));
        }
        String cursor = params == null || !params.path("cursor").isString() ? null : params.get("cursor").asString();
        return switch (method) {
            case "tools/list" -> client.listTools(cursor).map(Object.class::cast);
            case "resources/list" -> client.listResources(cursor).map(Object.class::cast);
            case "resources/templates/list" -> client.listResourceTemplates(cursor).map(Object.class::cast);
            case "resources/read" -> client.readResource(read(params, McpSchema.ReadResourceRequest.class)).map(Object.class::cast);
            case "resources/subscribe" -> client.subscribeResource(read(params, McpSchema.SubscribeRequest.class)).thenReturn(EMPTY);
            case "resources/unsubscribe" -> client.unsubscribeResource(read(params, McpSchema.UnsubscribeRequest.class)).thenReturn(EMPTY);
            case "prompts/list" -> client.listPrompts(cursor).map(Object.class::cast);
            case "prompts/get" -> client.getPrompt(read(params, McpSchema.GetPromptRequest.class)).map(Object.class::cast);
            case "completion/complete" -> client.completeCompletion(read(params, McpSchema.CompleteRequest.class)).map(Object.class::cast);
            case "logging/setLevel" -> client.setLoggingLevel(read(params, McpSchema.SetLevelRequest.class).level()).thenReturn(EMPTY);
            default -> Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + method));
        };
    }

    private static final Object EMPTY = Map.of();

    private static boolean offered(McpSchema.ServerCapabilities capabilities, String method) {
        if (capabilities == null) {
            return true;
        }
        return switch (method.substring(0, method.indexOf('/'))) {
            case "tools" -> capabilities.tools() != null;
            case "resources" -> capabilities.resources() != null;
            case "prompts" -> capabilities.prompts() != null;
            case "completion" -> capabilities.completions() != null;
            case "logging" -> capabilities.logging() != null;
            default -> true;
        };
    }

    private static <T> T read(ObjectNode params, Class<T> type) {
        try {
            T request = GatewayJson.MAPPER.convertValue(params == null ? GatewayJson.MAPPER.createObjectNode() : params, type);
            if (request == null) {
                throw JsonRpcError.invalidParams("params are required");
            }
            return request;
        } catch (IllegalArgumentException | tools.jackson.core.JacksonException e) {
            // the parser's message names our classes: say which method's params did not fit, no more
            throw JsonRpcError.invalidParams("params do not fit " + type.getSimpleName().replace("Request", "") + " request");
        }
    }

    static JsonRpcError tooLarge(String method, long maxBytes) {
        return JsonRpcError.upstream("The upstream MCP server's answer to " + method + " is larger than " + maxBytes
                + " bytes (gateway.mcp.max-result-bytes); it was not relayed, and whether the request took effect upstream is unknown");
    }

    static JsonRpcError connectionLost(String method) {
        return JsonRpcError.upstream("The connection to the upstream MCP server was lost while it handled " + method
                + "; whether the request took effect upstream is unknown");
    }

    public static JsonRpcError asRpcError(String method, Throwable failure) {
        if (failure instanceof JsonRpcError rpc) {
            return rpc;
        }
        if (failure instanceof McpUpstreamClients.SessionLost) {
            return JsonRpcError.upstream("The upstream MCP server lost the session again right after it was opened; "
                    + method + " was not run", McpError.findRootCause(failure).toString()).asNotSent();
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
    public static final class UpstreamRefused extends JsonRpcError {
        UpstreamRefused(int code, String message, JsonNode data) {
            super(code, message, data);
        }
    }
}
