package io.agentgateway.schemas.call;

import io.agentgateway.schemas.HeldCallKind;
import tools.jackson.databind.JsonNode;

/**
 * An MCP {@code tools/call}, held as the agent sent it (after the gateway removed {@code _risk}).
 *
 * @param name       {@code params.name}
 * @param arguments  {@code params.arguments}
 */
public record HeldMcpToolCall(String name, JsonNode arguments) implements HeldCall {

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.MCP_TOOL_CALL;
    }
}
