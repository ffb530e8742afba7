package io.agentgateway.console.approvals;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.call.CallView;
import tools.jackson.databind.JsonNode;

/**
 * Exactly what will run, as the reviewer reads it: the call view the entry point made from the sealed call (method,
 * URL, body; decoded file content; GraphQL operation and variables; MCP tool and arguments), the upstream it goes to,
 * and the digest the approval is bound to. Every part is text put on the page escaped.
 *
 * @param upstream the tool connection's base URL (or MCP server URL) when the read model has one, else null
 */
public record HeldCall(CallView view, String upstream, String callDigest, String heldCallKind) {

    public static CallView viewOf(JsonNode json) {
        if (json == null || json.isNull() || !json.isObject()) {
            return null;
        }
        try {
            return GatewayJson.MAPPER.treeToValue(json, CallView.class);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** The URL the call goes to: the upstream (when known) with the path and query. */
    public String url() {
        if (view == null || view.path() == null) {
            return null;
        }
        String base = upstream == null ? "" : upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
        return base + view.path() + (view.query() == null || view.query().isEmpty() ? "" : "?" + view.query());
    }

    public boolean hasView() {
        return view != null;
    }

    /** An MCP tool call: the tool and its arguments are what runs. */
    public boolean mcp() {
        return view != null && view.mcpTool() != null;
    }

    public boolean graphql() {
        return view != null && (view.graphqlDocument() != null || view.graphqlOperation() != null);
    }
}
