package io.agentgateway.mcpgate.heldcall;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.upstream.McpUpstreamCalls;
import io.agentgateway.mcpgate.upstream.McpUpstreams;
import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HeldCallRunner;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldMcpRequest;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs an approved MCP {@code resources/read} or {@code prompts/get} once: exactly the method and params
 * that were sealed, relayed ({@link McpUpstreamCalls#relay}) to the upstream of the connection its claim was
 * granted with. The upstream's result (a read's {@code contents}, a prompt's {@code messages}) is the execution
 * result; errors are recorded as for a held {@code tools/call} ({@link McpHeldCallRunner#recorded}).
 */
@Component
class McpHeldRequestRunner implements HeldCallRunner {
    private final McpUpstreamCalls upstream;

    McpHeldRequestRunner(McpUpstreamCalls upstream) {
        this.upstream = upstream;
    }

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.MCP_REQUEST;
    }

    @Override
    public Mono<JsonNode> run(HeldCallContext context, HeldCall call) {
        HeldMcpRequest request = (HeldMcpRequest) call;
        if (!HeldMcpRequest.METHODS.contains(request.method())
                || (request.params() != null && !request.params().isNull() && !(request.params() instanceof ObjectNode))) {
            // only what the gate holds: anything else was never sealed by it
            return Mono.error(new IllegalStateException("Not run: the held MCP request is not a resources/read or prompts/get"));
        }
        ObjectNode params = request.params() instanceof ObjectNode object ? object : null;
        // the connection the claim was granted with, in log order: never another copy
        return McpHeldCallRunner.recorded(context,
                Mono.fromCallable(() -> McpUpstreams.of(UUID.fromString(context.workspaceId()), context.connection()))
                        .flatMap(server -> upstream.relay(server, request.method(), params))
                        .onErrorMap(JsonRpcError.class, McpHeldRequestRunner::refusedBeforeSending));
    }

    /**
     * -32601 (the upstream does not offer the method) and -32602 (params the SDK cannot read) that the upstream did not
     * answer itself are raised by the gate before anything is sent: the result may say "Not run".
     */
    private static JsonRpcError refusedBeforeSending(JsonRpcError failure) {
        boolean local = !(failure instanceof McpUpstreamCalls.UpstreamRefused)
                && (failure.code() == JsonRpcError.METHOD_NOT_FOUND || failure.code() == JsonRpcError.INVALID_PARAMS);
        return local ? failure.asNotSent() : failure;
    }
}
