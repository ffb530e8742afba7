package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.schemas.GatewayJson;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15 through the running gateway, with the official MCP Java SDK as the client and as the upstream: an MCP
 * {@code resources/read} or {@code prompts/get} whose policy asks for an approval is answered -32001 naming the
 * approval request and is held; approved, the gateway sends exactly that request upstream once and the status
 * endpoint shows its result; rejected, it never reaches the upstream.
 */
class McpHeldReadTest {
    private static final String GATE = McpGateClients.GATE;
    private static final String SECRET_URI = "test://secret/plans";

    private static McpSyncClient sdkClient(TestWorkspace ws) {
        return McpGateClients.initialized(McpGateClients.streamable(GatewayHarness.gateway().baseUrl(), ws.apiKey(), null));
    }

    private static void requireApproval(TestWorkspace ws, String method, String resourceId) {
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "a human looks first", "priority", 10, "decision", "require_approval",
                "match", Map.of("tools", List.of("mcp"), "actions", List.of(method), "resourceIds", List.of(resourceId))));
        assertThat(policy.status()).as(policy.rawBody()).isEqualTo(201);
    }

    /** The request through the gate: -32001 naming the approval request; its id. */
    private static String held(TestWorkspace ws, String method, String marker) {
        try (McpSyncClient sdk = sdkClient(ws)) {
            McpError refused = (McpError) org.assertj.core.api.Assertions.catchThrowable(() -> {
                if ("resources/read".equals(method)) {
                    sdk.readResource(new McpSchema.ReadResourceRequest(SECRET_URI));
                } else {
                    sdk.getPrompt(new McpSchema.GetPromptRequest("greeting", Map.of("name", marker)));
                }
            });
            assertThat(refused).as("held, not answered").isNotNull();
            assertThat(refused.getJsonRpcError().code()).isEqualTo(-32001);
            JsonNode data = GatewayJson.MAPPER.valueToTree(refused.getJsonRpcError().data());
            String approvalId = data.get("approvalRequestId").asString();
            assertThat(data.get("status").asString()).isEqualTo("require_approval");
            assertThat(data.get("auditLogId").asString()).isNotBlank();
            assertThat(refused.getJsonRpcError().message()).contains(approvalId);
            return approvalId;
        }
    }

    private static JsonNode awaitEnded(TestWorkspace ws, String approvalId) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null),
                        r -> r.status() == 200 && !List.of("pending", "approved", "executing").contains(r.text("status")))
                .body();
    }

    private static void awaitPending(TestWorkspace ws, String approvalId) {
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"resources/read", "prompts/get"})
    void aHeldReadRunsExactlyOnceUpstreamAfterApprovalAndItsResultIsOnTheStatusEndpoint(String method) {
        try (McpUpstreamServer upstream = McpUpstreamServer.start()) {
            TestWorkspace ws = GatewayHarness.newWorkspace();
            McpGateClients.connect(ws, upstream.streamableUrl(), "http", "bearer", "t");
            boolean read = "resources/read".equals(method);
            requireApproval(ws, method, read ? "test://secret/*" : "greeting");
            String marker = UUID.randomUUID().toString();

            String approvalId = held(ws, method, marker);
            assertThat(upstream.reads).as("held, not sent").isEmpty();
            awaitPending(ws, approvalId);
            JsonNode pending = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null).body();
            // what reviewers see: the method and the params that will be sent
            assertThat(pending.at("/callView/method").asString()).as(pending.toString()).isEqualTo(method);
            assertThat(pending.at("/callView/bodyExcerpt").asString()).contains(read ? SECRET_URI : marker);

            var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                    ws.ownerJwt(), Map.of("reason", "go"));
            assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
            JsonNode executed = awaitEnded(ws, approvalId);
            assertThat(executed.get("status").asString()).as(executed.toString()).isEqualTo("executed");
            if (read) {
                assertThat(executed.at("/executionResult/contents/0/text").asString()).isEqualTo("contents of " + SECRET_URI);
                assertThat(upstream.reads).containsExactly(new McpUpstreamServer.Read(method, SECRET_URI, Map.of()));
            } else {
                assertThat(executed.at("/executionResult/messages/0/content/text").asString()).isEqualTo("Hello " + marker);
                assertThat(upstream.reads).containsExactly(new McpUpstreamServer.Read(method, "greeting", Map.of("name", marker)));
            }
            assertThat(upstream.calls).as("no tool ran").isEmpty();
        }
    }

    /** Params the upstream's SDK cannot take: refused by the gate before sending, so the status may say "Not run". */
    @Test
    void anApprovedPromptWhoseParamsCannotBeSentFailsAsNotRun() throws Exception {
        try (McpUpstreamServer upstream = McpUpstreamServer.start()) {
            TestWorkspace ws = GatewayHarness.newWorkspace();
            McpGateClients.connect(ws, upstream.streamableUrl(), "http", "bearer", "t");
            requireApproval(ws, "prompts/get", "greeting");
            var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(GatewayHarness.gateway().baseUrl() + GATE)).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + ws.apiKey())
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("""
                            {"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greeting","arguments":"not an object"}}
                            """)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            JsonNode answer = GatewayJson.MAPPER.readTree(response.body());
            assertThat(answer.at("/error/code").intValue()).as(answer.toString()).isEqualTo(-32001);
            String approvalId = answer.at("/error/data/approvalRequestId").asString();
            awaitPending(ws, approvalId);
            assertThat(client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/approve",
                    ws.ownerJwt(), Map.of()).status()).isEqualTo(200);
            JsonNode failed = awaitEnded(ws, approvalId);
            assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("failed");
            assertThat(failed.at("/executionResult/content/0/text").asString()).startsWith("Not run: ");
            assertThat(upstream.reads).isEmpty();
        }
    }

    @Test
    void aRejectedReadNeverReachesTheUpstream() {
        try (McpUpstreamServer upstream = McpUpstreamServer.start()) {
            TestWorkspace ws = GatewayHarness.newWorkspace();
            McpGateClients.connect(ws, upstream.streamableUrl(), "http", "bearer", "t");
            requireApproval(ws, "resources/read", SECRET_URI);
            requireApproval(ws, "prompts/get", "greeting");
            for (String method : List.of("resources/read", "prompts/get")) {
                String approvalId = held(ws, method, UUID.randomUUID().toString());
                awaitPending(ws, approvalId);
                var rejected = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/reject",
                        ws.ownerJwt(), Map.of("reason", "no"));
                assertThat(rejected.status()).as(rejected.rawBody()).isEqualTo(200);
                JsonNode ended = awaitEnded(ws, approvalId);
                assertThat(ended.get("status").asString()).isEqualTo("rejected");
                assertThat(ended.get("executionResult") == null || ended.get("executionResult").isNull()).as(ended.toString()).isTrue();
            }
            // an approval of another read in the same workspace runs (so the executor was there) while these never do
            String other = held(ws, "resources/read", "x");
            awaitPending(ws, other);
            assertThat(client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + other + "/approve",
                    ws.ownerJwt(), Map.of()).status()).isEqualTo(200);
            assertThat(awaitEnded(ws, other).get("status").asString()).isEqualTo("executed");
            assertThat(upstream.reads).containsExactly(new McpUpstreamServer.Read("resources/read", SECRET_URI, Map.of()));
        }
    }
}
