package io.agentgateway.schemas.call;

import io.agentgateway.schemas.HeldCallKind;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * An MCP request other than {@code tools/call} that is decided as an action of its own and so can be held
 * like a {@code tools/call}: {@code resources/read} or {@code prompts/get}, as the agent sent it. After approval
 * exactly this method with exactly these params goes to the upstream, once.
 *
 * @param method  the JSON-RPC method, {@code resources/read} or {@code prompts/get}
 * @param params  the request's {@code params} as received, or null for none
 */
public record HeldMcpRequest(String method, JsonNode params) implements HeldCall {

    /** The methods that can be held this way. */
    public static final Set<String> METHODS = Set.of("resources/read", "prompts/get");

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.MCP_REQUEST;
    }
}
