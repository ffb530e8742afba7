package io.agentgateway.mcpgate.heldcall;

import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.upstream.McpUpstreamCalls;
import io.agentgateway.mcpgate.upstream.McpUpstreams;
import io.agentgateway.actiongate.heldcall.ExecutionResults;
import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HeldCallRunner;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldMcpToolCall;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Runs an approved MCP {@code tools/call} against the upstream of the connection its claim was granted
 * with, once. The
 * upstream's result ({@code content}, {@code isError}) is the execution result; a JSON-RPC error the
 * upstream answered with is an executed call whose result is an error; no answer at all is a
 * failure signal for the executor, whose text says "Not run" only when nothing reached the upstream
 * and otherwise that the outcome is unknown (a timeout, an answer over the bound, a lost connection).
 */
@Component
class McpHeldCallRunner implements HeldCallRunner {
    private static final Logger log = LoggerFactory.getLogger(McpHeldCallRunner.class);
    private final McpUpstreamCalls upstream;
    private final int storedResultMaxBytes;

    McpHeldCallRunner(McpUpstreamCalls upstream, McpTaskProperties tasks) {
        this.upstream = upstream;
        this.storedResultMaxBytes = tasks.storedResultMaxBytes();
    }

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.MCP_TOOL_CALL;
    }

    @Override
    public Mono<JsonNode> run(HeldCallContext context, HeldCall call) {
        HeldMcpToolCall toolCall = (HeldMcpToolCall) call;
        // the connection the claim was granted with, in log order: never another copy
        return recorded(context, Mono.fromCallable(() -> McpUpstreams.of(UUID.fromString(context.workspaceId()), context.connection()))
                .flatMap(server -> upstream.callTool(server, toolCall.name(), toolCall.arguments())))
                .map(result -> storable(context, result));
    }

    /**
     * The whole {@code CallToolResult} is kept (content of every type, {@code structuredContent}, {@code _meta}): it is
     * what the call's MCP task answers with. It travels in the command that records it, one Kafka record: a result over
     * {@code gateway.mcp.tasks.stored-result-max-bytes} is replaced by an error result that says so (the call ran).
     */
    private JsonNode storable(HeldCallContext context, JsonNode result) {
        int bytes = GatewayJson.MAPPER.writeValueAsBytes(result).length;
        if (bytes <= storedResultMaxBytes) {
            return result;
        }
        log.warn("[{}] the result of approved MCP call {} is {} bytes, more than gateway.mcp.tasks.stored-result-max-bytes;"
                + " it is not kept", context.correlationId(), context.approvalId(), bytes);
        return ExecutionResults.text("The tool ran, but its result (" + bytes + " bytes) is larger than the "
                + storedResultMaxBytes + " bytes the gateway keeps (gateway.mcp.tasks.stored-result-max-bytes), so it was"
                + " not kept", true);
    }

    /**
     * An approved MCP request's answer as the executor records it (also for {@link McpHeldRequestRunner}): the result
     * as executed; the upstream's JSON-RPC error as an executed call whose result is an error; no answer as a failure
     * whose text says "Not run" only when nothing reached the upstream.
     */
    static Mono<JsonNode> recorded(HeldCallContext context, Mono<? extends JsonNode> answer) {
        return answer.<JsonNode>map(result -> result)
                .onErrorResume(McpUpstreamCalls.UpstreamRefused.class,
                        refused -> Mono.just(ExecutionResults.text(refused.getMessage(), true)))
                .onErrorMap(JsonRpcError.class, failure -> {
                    if (failure.detail() != null) {
                        log.warn("[{}] approved MCP call of approval {} failed upstream: {}", context.correlationId(),
                                context.approvalId(), failure.detail());
                    }
                    // the status is failed either way; its result must not say "not run" of a call that may have run
                    return new IllegalStateException(failure.notSent() ? "Not run: " + failure.getMessage()
                            : "The outcome is unknown (the upstream may have run the call): " + failure.getMessage());
                });
    }
}
