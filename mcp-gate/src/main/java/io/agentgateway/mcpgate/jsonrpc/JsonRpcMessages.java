package io.agentgateway.mcpgate.jsonrpc;

import io.agentgateway.httpedge.web.IngressJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/** Builds JSON-RPC 2.0 response objects; the id is echoed as the request sent it (null when it could not be read). */
public final class JsonRpcMessages {
    private JsonRpcMessages() {}

    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode response = envelope(id);
        response.set("result", result);
        return response;
    }

    public static ObjectNode error(JsonNode id, JsonRpcError error) {
        ObjectNode response = envelope(id);
        response.set("error", errorObject(error));
        return response;
    }

    /** The error member of a response: code, message, and data when there is any. */
    public static ObjectNode errorObject(JsonRpcError error) {
        ObjectNode body = IngressJson.RESPONSES.createObjectNode();
        body.put("code", error.code());
        body.put("message", error.getMessage());
        if (error.data() != null) {
            body.set("data", error.data());
        }
        return body;
    }

    private static ObjectNode envelope(JsonNode id) {
        ObjectNode response = IngressJson.RESPONSES.createObjectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id == null ? NullNode.getInstance() : id);
        return response;
    }
}
