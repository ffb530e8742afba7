package io.agentgateway.actiongate.heldcall;

import io.agentgateway.schemas.GatewayJson;
import tools.jackson.databind.node.ObjectNode;

/**
 * Execution results in the shape of spec section 2: {@code {content:[{type:"text", text}], isError}}.
 * Text is cleaned of U+0000, which PostgreSQL's jsonb cannot store (the result would otherwise never
 * reach the read model).
 */
public final class ExecutionResults {
    private ExecutionResults() {}

    public static ObjectNode text(String text, boolean isError) {
        ObjectNode result = GatewayJson.MAPPER.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", storable(text));
        result.put("isError", isError);
        return result;
    }

    /** Why a call could not be run or got no answer. */
    public static ObjectNode failure(String why) {
        return text(why, true);
    }

    static String storable(String text) {
        return text == null ? "" : text.replace('\u0000', '\uFFFD');
    }
}
