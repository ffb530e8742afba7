package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15 item 5 through the running gateway: a tool the workspace's policies block outright is not listed, and
 * listing and calling agree (the official MCP Java SDK client through the gate, a real SDK server upstream). Each
 * {@code tools/list} is decided anew on the same policies as the calls: a policy change shows on the next list while
 * the upstream's own list is still served from the cache.
 */
class McpGateToolListTest {
    private static final String GATE = McpGateClients.GATE;
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();
    private static final List<String> RISKS = List.of("low", "medium", "high", "critical");

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    @Test
    void aToolBlockedOutrightIsNotListedAndEveryListedToolIsOneItsCallIsNotBlockedFor() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        try (McpSyncClient sdk = sdkClient(ws)) {
            assertThat(listed(sdk)).containsExactlyInAnyOrderElementsOf(McpUpstreamServer.TOOLS);

            String noDeletions = createPolicy(ws, policy("no deletions", "block", List.of("delete_*"), List.of(), true));
            // blocks that depend on the call do not hide: a risk level (arguments._risk picks it), an approval
            createPolicy(ws, policy("no risky merges", "block", List.of("merge_*"), List.of("high", "critical"), true));
            createPolicy(ws, policy("hold reads of files", "require_approval", List.of("read_file"), List.of(), true));

            List<String> shown = listed(sdk);
            assertThat(shown).containsExactlyInAnyOrder("list_repos", "create_issue", "merge_pull_request", "read_file",
                    "get_big_text", "read_report");
            assertListAndCallsAgree(sdk, shown);
            assertThat(UPSTREAM.calls).noneMatch(call -> call.tool().startsWith("delete_"));

            // the filter is decided for every list: disabling the policy shows the tools on the next one, while the
            // upstream's list is still the cached one
            int upstreamRequests = UPSTREAM.requests.get();
            var disabled = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/policies/" + noDeletions, ws.ownerJwt(),
                    policy("no deletions", "block", List.of("delete_*"), List.of(), false));
            assertThat(disabled.status()).as(disabled.rawBody()).isEqualTo(200);
            List<String> again = listed(sdk);
            assertThat(again).containsExactlyInAnyOrderElementsOf(McpUpstreamServer.TOOLS);
            assertThat(UPSTREAM.requests.get()).as("the upstream's list came from the cache").isEqualTo(upstreamRequests);
            assertListAndCallsAgree(sdk, again);
        }
    }

    @Test
    void aToolListIsAuditedOnceAndItsAnswerIsTheDecidedOneOverPlainJsonRpc() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        createPolicy(ws, policy("nothing for agents", "block", List.of("*"), List.of(), true));
        createPolicy(ws, Map.of("name", "but listing", "priority", 1, "decision", "allow",
                "match", Map.of("tools", List.of("mcp"), "actions", List.of("tools/list", "list_*"))));

        var response = client().send("POST", GATE, ws.apiKey(), Map.of("jsonrpc", "2.0", "id", 4, "method", "tools/list"));
        assertThat(response.status()).as(response.rawBody()).isEqualTo(200);
        JsonNode tools = response.body().at("/result/tools");
        assertThat(tools.findValuesAsString("name")).containsExactly("list_repos");
        assertThat(tools.get(0).at("/inputSchema/type").asString()).as("the upstream's entry as it was").isEqualTo("object");
        assertThat(tools.get(0).get("description").asString()).isEqualTo("test tool list_repos");
    }

    /** Every tool of the upstream: listed exactly when some call of it (at one of the four risks) is not blocked. */
    private static void assertListAndCallsAgree(McpSyncClient sdk, List<String> shown) {
        for (String tool : McpUpstreamServer.TOOLS) {
            boolean blockedAtEveryRisk = RISKS.stream().allMatch(risk -> blocked(sdk, tool, risk));
            assertThat(shown.contains(tool)).as("%s listed (its call blocked at every risk: %s)", tool, blockedAtEveryRisk)
                    .isEqualTo(!blockedAtEveryRisk);
        }
    }

    private static boolean blocked(McpSyncClient sdk, String tool, String risk) {
        // a block is decided before anything reaches the upstream; an allowed big_text call asks for 10 bytes
        Map<String, Object> arguments = Map.of("marker", UUID.randomUUID().toString(), "bytes", 10, "_risk", risk);
        try {
            sdk.callTool(new McpSchema.CallToolRequest(tool, arguments));
            return false;
        } catch (McpError e) {
            assertThat(e.getJsonRpcError()).as(e.getMessage()).isNotNull();
            return e.getJsonRpcError().code() == -32001;
        }
    }

    private static List<String> listed(McpSyncClient sdk) {
        return sdk.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }

    private static Map<String, Object> policy(String name, String decision, List<String> actions, List<String> risks,
                                              boolean enabled) {
        Map<String, Object> match = new HashMap<>(Map.of("tools", List.of("mcp"), "actions", actions));
        if (!risks.isEmpty()) {
            match.put("riskLevels", risks);
        }
        return Map.of("name", name, "priority", 10, "enabled", enabled, "decision", decision, "match", match);
    }

    private static String createPolicy(TestWorkspace ws, Map<String, Object> body) {
        var created = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), body);
        assertThat(created.status()).as(created.rawBody()).isEqualTo(201);
        return created.text("policyId");
    }

    private static McpSyncClient sdkClient(TestWorkspace ws) {
        return McpGateClients.initialized(McpGateClients.streamable(GatewayHarness.gateway().baseUrl(), ws.apiKey(), "sdk-agent"));
    }
}
