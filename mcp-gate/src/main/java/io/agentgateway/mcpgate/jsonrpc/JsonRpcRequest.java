package io.agentgateway.mcpgate.jsonrpc;

import io.agentgateway.httpedge.web.BodyStringLimits;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One well-formed JSON-RPC 2.0 request or notification.
 *
 * @param id      the request's id (a number or a string), or null for a notification
 * @param params  the params object, or null when the request sent none
 */
public record JsonRpcRequest(JsonNode id, String method, ObjectNode params) {

    public boolean isNotification() {
        return id == null;
    }

    /**
     * Validates one element of a request body.
     *
     * @throws JsonRpcError -32600 for anything that is not a JSON-RPC 2.0 request; its id is then unknown
     */
    public static JsonRpcRequest parse(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            throw invalid("a JSON-RPC request must be an object");
        }
        JsonNode version = object.get("jsonrpc");
        if (version == null || !version.isString() || !"2.0".equals(version.asString())) {
            throw invalid("jsonrpc must be \"2.0\"");
        }
        JsonNode method = object.get("method");
        if (method == null || !method.isString() || method.asString().isEmpty()
                || method.asString().length() > BodyStringLimits.IDENTIFIER_MAX_CHARS) {
            throw invalid("method must be a non-empty string of at most " + BodyStringLimits.IDENTIFIER_MAX_CHARS + " characters");
        }
        JsonNode id = object.get("id");
        if (id != null && !(id.isNumber() || isShortString(id))) {
            // "id": null is neither a request (MCP: the id must not be null) nor a notification (which has no id)
            throw invalid("id must be a number or a string of at most " + BodyStringLimits.IDENTIFIER_MAX_CHARS + " characters");
        }
        JsonNode params = object.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            throw new JsonRpcError(JsonRpcError.INVALID_PARAMS, "params must be an object");
        }
        return new JsonRpcRequest(id, method.asString(), params instanceof ObjectNode p ? p : null);
    }

    /** The id of a body element whose other members were wrong, when it can be read, so the error can echo it. */
    public static JsonNode idOf(JsonNode node) {
        JsonNode id = node instanceof ObjectNode object ? object.get("id") : null;
        return id != null && (id.isNumber() || isShortString(id)) ? id : null;
    }

    /** Ids are echoed in every answer: a string id is kept short. */
    private static boolean isShortString(JsonNode id) {
        return id.isString() && id.asString().length() <= BodyStringLimits.IDENTIFIER_MAX_CHARS;
    }

    private static JsonRpcError invalid(String why) {
        return new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid request: " + why);
    }
}
