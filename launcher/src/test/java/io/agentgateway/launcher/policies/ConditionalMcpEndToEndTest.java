package io.agentgateway.launcher.policies;

import static io.agentgateway.launcher.policies.ConditionalPoliciesEndToEndTest.createPolicy;
import static io.agentgateway.launcher.support.McpGateClients.connect;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpSdkUpstream;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Policy conditions on MCP {@code tools/call}s through the official MCP Java SDK (client in front of the gate, SDK
 * server behind it): a transfer over 1,000 is held whatever the amount's JSON form, and a number sent as a string, a
 * missing amount or arguments padded over the size a condition may read are held too; a message to a channel outside
 * the company is held; a file write under the workflows folder is blocked by {@code normalizePath} however the path is
 * spelled. Held and blocked calls never reach the upstream.
 */
class ConditionalMcpEndToEndTest {
    private static final List<String> TOOLS = List.of("transfer_funds", "send_message", "write_file");
    private static final List<Map<String, Object>> CALLS = new CopyOnWriteArrayList<>();
    private static final McpSdkUpstream UPSTREAM = McpSdkUpstream.start("mcp-conditions", 0, streamable -> streamable,
            request -> request, spec -> spec.serverInfo("conditions-upstream", "1.0.0")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .tools(TOOLS.stream().map(name -> SyncToolSpecification.builder()
                            .tool(McpSchema.Tool.builder().name(name).description("test tool " + name)
                                    .inputSchema(Map.of("type", "object")).build())
                            .callHandler((exchange, request) -> {
                                Map<String, Object> call = new HashMap<>(request.arguments() == null ? Map.of() : request.arguments());
                                call.put("_tool", name);
                                CALLS.add(call);
                                return McpSchema.CallToolResult.builder().addTextContent(name + " done").isError(false).build();
                            }).build()).toList())
                    .build());

    @AfterAll
    static void stop() {
        UPSTREAM.close();
    }

    private static String call(McpSyncClient sdk, String tool, Map<String, Object> arguments) {
        try {
            var result = sdk.callTool(new McpSchema.CallToolRequest(tool, arguments));
            JsonNode meta = GatewayJson.MAPPER.valueToTree(result.meta());
            return meta.at("/service/status").asString();
        } catch (McpError e) {
            assertThat(e.getJsonRpcError().code()).as(e.getMessage()).isEqualTo(-32001);
            return "blocked";
        }
    }

    @Test
    void theSdksToolCallsAreDecidedOnTheirWholeArgumentsAndEveryEvasionIsHeldOrBlocked() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        createPolicy(ws, "hold large transfers", 1, "require_approval",
                Map.of("tools", List.of("mcp"), "actions", List.of("transfer_funds")), "args.amount > 1000");
        createPolicy(ws, "hold external messages", 2, "require_approval",
                Map.of("tools", List.of("mcp"), "actions", List.of("send_message")), "!(args.channel in ['C-ENG', 'C-OPS'])");
        createPolicy(ws, "no workflow edits", 3, "block", Map.of("tools", List.of("mcp"), "actions", List.of("write_file")),
                "normalizePath(args.path).startsWith('.github/workflows/')");
        connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t-" + UUID.randomUUID());
        String marker = UUID.randomUUID().toString();

        try (McpSyncClient sdk = McpGateClients.initialized(McpGateClients.streamable(GatewayHarness.gateway().baseUrl(),
                ws.apiKey(), "conditions-agent"))) {
            assertThat(call(sdk, "transfer_funds", Map.of("amount", 20, "marker", marker))).isEqualTo("allowed");
            assertThat(call(sdk, "transfer_funds", Map.of("amount", 1500, "marker", marker))).isEqualTo("require_approval");
            assertThat(call(sdk, "transfer_funds", Map.of("amount", 1500.0, "marker", marker))).isEqualTo("require_approval");
            assertThat(call(sdk, "transfer_funds", Map.of("amount", "1500", "marker", marker))).as("a number as a string")
                    .isEqualTo("require_approval");
            assertThat(call(sdk, "transfer_funds", Map.of("marker", marker))).as("a key missing").isEqualTo("require_approval");
            // _risk is not among the arguments a condition reads, and does not change what it reads
            assertThat(call(sdk, "transfer_funds", Map.of("amount", 5000, "_risk", "low", "marker", marker)))
                    .isEqualTo("require_approval");
            assertThat(call(sdk, "transfer_funds", Map.of("amount", 20, "memo", "x".repeat(70_000), "marker", marker)))
                    .as("padded over the size a condition may read").isEqualTo("require_approval");

            assertThat(call(sdk, "send_message", Map.of("channel", "C-ENG", "text", "hi", "marker", marker))).isEqualTo("allowed");
            assertThat(call(sdk, "send_message", Map.of("channel", "C-PARTNER", "text", "hi", "marker", marker)))
                    .isEqualTo("require_approval");
            assertThat(call(sdk, "send_message", Map.of("text", "hi", "marker", marker))).isEqualTo("require_approval");

            for (String path : List.of(".github/workflows/ci.yml", ".github/./workflows/ci.yml", ".github//workflows/ci.yml",
                    "%2egithub/workflows/ci.yml", ".GITHUB/Workflows/ci.yml", "docs/../.github/workflows/ci.yml")) {
                assertThat(call(sdk, "write_file", Map.of("path", path, "marker", marker))).as(path).isEqualTo("blocked");
            }
            assertThat(call(sdk, "write_file", Map.of("path", "src/app.py", "marker", marker))).isEqualTo("allowed");
        }
        // only the allowed calls reached the upstream, with their arguments as sent (without _risk)
        assertThat(CALLS.stream().filter(c -> marker.equals(c.get("marker"))).map(c -> c.get("_tool") + " " + c.getOrDefault("amount",
                c.getOrDefault("channel", c.get("path")))).toList())
                .containsExactlyInAnyOrder("transfer_funds 20", "send_message C-ENG", "write_file src/app.py");
    }
}
