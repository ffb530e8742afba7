package io.agentgateway.mcpgate;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.schemas.command.EvaluateAction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a {@code tools/list} decision is asked about and what the gate then offers: the names of an upstream
 * page's tools go on the EvaluateAction ({@link EvaluateAction#listedTools()}); the answer lists only the tools whose
 * name was decided and not hidden. A tool with no usable name (none, not a string, blank, longer than a
 * {@code tools/call} of the gate accepts) cannot be called through the gate and is not offered either; a page with more
 * names than one decision takes is refused (fail closed), never offered undecided.
 */
final class McpListedTools {
    private McpListedTools() {}

    /**
     * The distinct usable names of the page's tools, in order.
     *
     * @throws JsonRpcError -32002 when the page names more tools than one decision takes
     */
    static List<String> names(ObjectNode page) {
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode tool : tools(page)) {
            String name = usableName(tool);
            if (name != null) {
                names.add(name);
            }
        }
        if (names.size() > EvaluateAction.MAX_LISTED_TOOLS) {
            throw JsonRpcError.upstream("The upstream MCP server lists " + names.size() + " tools in one tools/list page;"
                    + " the gate decides at most " + EvaluateAction.MAX_LISTED_TOOLS + " per page and lists none of them");
        }
        return new ArrayList<>(names);
    }

    /** A copy of the page with only the tools whose name is in {@code decided} and not in {@code hidden}. */
    static ObjectNode offered(ObjectNode page, Collection<String> decided, Collection<String> hidden) {
        Set<String> shown = new LinkedHashSet<>(decided);
        if (hidden != null) {
            shown.removeAll(hidden);
        }
        ObjectNode offered = page.deepCopy();
        ArrayNode tools = offered.putArray("tools");
        for (JsonNode tool : tools(page)) {
            String name = usableName(tool);
            if (name != null && shown.contains(name)) {
                tools.add(tool.deepCopy());
            }
        }
        return offered;
    }

    private static Iterable<JsonNode> tools(ObjectNode page) {
        JsonNode tools = page.get("tools");
        return tools instanceof ArrayNode array ? array : List.of();
    }

    private static String usableName(JsonNode tool) {
        JsonNode name = tool == null ? null : tool.get("name");
        if (name == null || !name.isString()) {
            return null;
        }
        String text = name.asString();
        return text.isBlank() || text.length() > EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS ? null : text;
    }
}
