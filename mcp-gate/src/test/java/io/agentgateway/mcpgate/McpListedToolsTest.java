package io.agentgateway.mcpgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.EvaluateAction;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** What a tools/list decision is asked about and what the gate offers after it (issue 15). */
class McpListedToolsTest {

    @Test
    void names_are_the_usable_distinct_names_in_order() {
        ObjectNode page = page("list_repos", "delete_repo", "list_repos");
        ArrayNode tools = (ArrayNode) page.get("tools");
        tools.addObject().put("description", "no name");
        tools.addObject().put("name", 42);
        tools.addObject().put("name", " ");
        tools.addObject().put("name", "x".repeat(EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS + 1));
        tools.addObject().put("name", "y".repeat(EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS));

        assertThat(McpListedTools.names(page)).containsExactly("list_repos", "delete_repo",
                "y".repeat(EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS));
        assertThat(McpListedTools.names(GatewayJson.MAPPER.createObjectNode())).isEmpty();
    }

    @Test
    void only_decided_tools_that_are_not_hidden_are_offered_and_the_rest_of_the_page_is_kept() {
        ObjectNode page = page("list_repos", "delete_repo", "create_issue");
        page.put("nextCursor", "page-2");
        ((ArrayNode) page.get("tools")).addObject().put("description", "no name");

        ObjectNode offered = McpListedTools.offered(page, McpListedTools.names(page), List.of("delete_repo"));

        assertThat(offered.get("tools").findValuesAsString("name")).containsExactly("list_repos", "create_issue");
        assertThat(offered.get("tools").get(0).get("description").asString()).isEqualTo("about list_repos");
        assertThat(offered.get("nextCursor").asString()).isEqualTo("page-2");
        assertThat(page.get("tools").size()).as("the cached page is not changed").isEqualTo(4);
    }

    @Test
    void a_page_with_more_tools_than_one_decision_takes_is_refused() {
        String[] names = new String[EvaluateAction.MAX_LISTED_TOOLS + 1];
        for (int i = 0; i < names.length; i++) {
            names[i] = "tool_" + i;
        }
        assertThat(McpListedTools.names(page(java.util.Arrays.copyOf(names, EvaluateAction.MAX_LISTED_TOOLS))))
                .hasSize(EvaluateAction.MAX_LISTED_TOOLS);
        assertThatThrownBy(() -> McpListedTools.names(page(names)))
                .isInstanceOfSatisfying(JsonRpcError.class, e -> {
                    assertThat(e.code()).isEqualTo(JsonRpcError.UPSTREAM_FAILED);
                    assertThat(e.getMessage()).contains("1001 tools", "at most 1000", "lists none of them");
                });
    }

    private static ObjectNode page(String... names) {
        ObjectNode page = GatewayJson.MAPPER.createObjectNode();
        ArrayNode tools = page.putArray("tools");
        for (String name : names) {
            ObjectNode tool = tools.addObject();
            tool.put("name", name);
            tool.put("description", "about " + name);
            tool.putObject("inputSchema").put("type", "object");
        }
        return page;
    }
}
