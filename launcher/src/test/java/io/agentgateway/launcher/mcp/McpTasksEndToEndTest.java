package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.mcp.McpTaskClient.call;
import static io.agentgateway.launcher.mcp.McpTaskClient.params;
import static io.agentgateway.launcher.mcp.McpTaskClient.taskParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.EdgeReplica;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.IngressReplica;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A held MCP {@code tools/call} as an MCP task, through the running gateway, with raw JSON-RPC in both revisions that
 * have tasks: 2025-11-25's utility ({@code params.task}, {@code tasks/get|result|list|cancel}) and 2026-07-28's
 * extension (declared per request, {@code resultType: "task"}, the result inline in {@code tasks/get}). The upstream
 * is the official MCP Java SDK's server; it records every call it runs. The transcripts of the main flows are written
 * to {@code target/mcp-tasks/} (docs/mcp-tasks.md shows them).
 */
class McpTasksEndToEndTest {
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();
    private static final Path TRANSCRIPTS = Path.of("target", "mcp-tasks");
    private static final String UTILITY = "2025-11-25";

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private static String gateway() {
        return GatewayHarness.gateway().baseUrl();
    }

    private static TestWorkspace connectedWorkspace() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        return ws;
    }

    private static void awaitPendingOnTheStatusEndpoint(TestWorkspace ws, String approvalId) {
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
    }

    private static void review(TestWorkspace ws, String approvalId, String verdict, String reason) {
        awaitPendingOnTheStatusEndpoint(ws, approvalId);
        var reviewed = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/" + verdict,
                ws.ownerJwt(), Map.of("reason", reason));
        assertThat(reviewed.status()).as(reviewed.rawBody()).isEqualTo(200);
    }

    private static JsonNode awaitTask(McpTaskClient mcp, String taskId, String status) {
        return await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> mcp.rpc("tasks/get", taskParams(taskId)).get("result"),
                        task -> task != null && status.equals(task.path("status").asString()));
    }

    private static ObjectNode rich(String tool, String marker, boolean asTask) {
        ObjectNode params = call(tool, marker, asTask);
        ((ObjectNode) params.get("arguments")).put("rich", true);
        return params;
    }

    private static void writeTranscript(String name, String text) throws IOException {
        Files.createDirectories(TRANSCRIPTS);
        Files.writeString(TRANSCRIPTS.resolve(name), text);
    }

    // ---- 2025-11-25 ----

    @Test
    void aHeldCallIsAWorkingTaskAndOnceApprovedItsTaskResultIsTheUpstreamsWholeResultRunOnce() throws Exception {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        JsonNode capabilities = mcp.initializeResult().get("capabilities");
        assertThat(capabilities.at("/tasks/requests/tools/call").isObject()).as(capabilities.toString()).isTrue();
        assertThat(capabilities.at("/tasks/list").isObject()).isTrue();
        assertThat(capabilities.at("/tasks/cancel").isObject()).isTrue();
        JsonNode tools = mcp.rpc("tools/list", params()).at("/result/tools");
        assertThat(tools).isNotEmpty().allSatisfy(tool -> assertThat(tool.at("/execution/taskSupport").asString()).isEqualTo("optional"));

        String marker = UUID.randomUUID().toString();
        JsonNode created = mcp.rpc("tools/call", rich("delete_repo", marker, true)).get("result");
        JsonNode task = created.get("task");
        String taskId = task.get("taskId").asString();
        String approvalId = created.at("/_meta/service/approvalRequestId").asString();
        assertThat(taskId).as("the task is the approval").isEqualTo(approvalId);
        assertThat(task.get("status").asString()).isEqualTo("working");
        assertThat(task.get("statusMessage").asString()).contains(approvalId).contains("expires at");
        Instant createdAt = Instant.parse(task.get("createdAt").asString());
        assertThat(task.get("ttl").asLong()).as("at least the approval's expiry (24 h by default) and its run")
                .isGreaterThanOrEqualTo(Duration.ofHours(48).toMillis());
        assertThat(task.get("pollInterval").asLong()).isPositive();
        assertThat(created.at("/_meta/io.modelcontextprotocol~1model-immediate-response").asString()).contains(approvalId);
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("held, not run").isEmpty();

        JsonNode polled = mcp.rpc("tasks/get", taskParams(taskId)).get("result");
        assertThat(polled.get("status").asString()).isEqualTo("working");
        assertThat(Instant.parse(polled.get("createdAt").asString())).isEqualTo(createdAt);
        // tasks/list reads the read model: a task shows there once the projector wrote it (milliseconds)
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(mcp.rpc("tasks/list", params())
                .at("/result/tasks")).extracting(t -> t.get("taskId").asString()).contains(taskId));

        CompletableFuture<JsonNode> result = mcp.rpcLater("tasks/result", taskParams(taskId));
        // tasks/result waits while the approval is pending: not done at any poll over 300 ms
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> !result.isDone());
        review(ws, approvalId, "approve", "go");

        JsonNode answer = result.get(40, TimeUnit.SECONDS).get("result");
        assertThat(answer.at("/content/0/text").asString()).isEqualTo("delete_repo done " + marker);
        assertThat(answer.at("/content/1/type").asString()).isEqualTo("image");
        assertThat(answer.at("/content/1/data").asString()).isEqualTo("aGVsbG8=");
        assertThat(answer.at("/content/1/mimeType").asString()).isEqualTo("image/png");
        assertThat(answer.at("/structuredContent/marker").asString()).isEqualTo(marker);
        assertThat(answer.at("/structuredContent/rows").asInt()).isEqualTo(3);
        assertThat(answer.at("/_meta/upstream~1trace").asString()).isEqualTo("t-" + marker);
        assertThat(answer.at("/isError").asBoolean()).isFalse();
        assertThat(answer.at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
        assertThat(answer.at("/_meta/service/status").asString()).isEqualTo("executed");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("run exactly once").hasSize(1);

        JsonNode completed = mcp.rpc("tasks/get", taskParams(taskId)).get("result");
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(mcp.rpc("tasks/result", taskParams(taskId)).get("result").at("/structuredContent/marker").asString())
                .isEqualTo(marker);
        JsonNode refused = mcp.rpc("tasks/cancel", taskParams(taskId));
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(refused.at("/error/message").asString()).contains("terminal status 'completed'");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
        writeTranscript("2025-11-25-held-call-approved.txt", mcp.transcript());
    }

    @Test
    void rejectedExpiredAndKillSwitchTasksFailWithTheBlockAndTheReason() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);

        String rejectedMarker = UUID.randomUUID().toString();
        String rejected = mcp.rpc("tools/call", call("delete_repo", rejectedMarker, true)).at("/result/task/taskId").asString();
        review(ws, rejected, "reject", "not this repo");
        JsonNode failed = awaitTask(mcp, rejected, "failed");
        assertThat(failed.get("statusMessage").asString()).contains("Rejected").contains("not this repo");
        JsonNode blocked = mcp.rpc("tasks/result", taskParams(rejected));
        assertThat(blocked.at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(blocked.at("/error/data/reason").asString()).contains("not this repo");
        assertThat(blocked.at("/error/data/status").asString()).isEqualTo("rejected");
        assertThat(blocked.at("/error/data/auditLogId").asString()).isNotBlank();
        assertThat(blocked.at("/error/data/correlationId").asString()).isNotBlank();

        // the kill switch on when the approved call is to run: the claim is refused, the task fails, nothing ran
        String killedMarker = UUID.randomUUID().toString();
        String killed = mcp.rpc("tools/call", call("delete_repo", killedMarker, true)).at("/result/task/taskId").asString();
        awaitPendingOnTheStatusEndpoint(ws, killed);
        assertThat(GatewayHarness.killSwitch(ws, "enable", null).status()).isEqualTo(200);
        review(ws, killed, "approve", "fine");
        JsonNode stopped = awaitTask(mcp, killed, "failed");
        assertThat(stopped.get("statusMessage").asString()).containsIgnoringCase("kill switch");
        JsonNode stoppedResult = mcp.rpc("tasks/result", taskParams(killed));
        assertThat(stoppedResult.at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(stoppedResult.at("/error/data/status").asString()).isEqualTo("cancelled");
        assertThat(GatewayHarness.killSwitch(ws, "disable", null).status()).isEqualTo(200);

        // expired: a workspace whose approvals live five seconds
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("approvalTtl", "PT5S")).status()).isIn(200, 204);
        String expiredMarker = UUID.randomUUID().toString();
        JsonNode short_ = mcp.rpc("tools/call", call("delete_repo", expiredMarker, true)).at("/result/task");
        assertThat(short_.get("ttl").asLong()).isLessThan(Duration.ofHours(2).toMillis());
        JsonNode expired = awaitTask(mcp, short_.get("taskId").asString(), "failed");
        assertThat(expired.get("statusMessage").asString()).contains("expired");
        assertThat(mcp.rpc("tasks/result", taskParams(short_.get("taskId").asString())).at("/error/data/status").asString())
                .isEqualTo("expired");

        assertThat(UPSTREAM.callsOf("delete_repo", rejectedMarker)).isEmpty();
        assertThat(UPSTREAM.callsOf("delete_repo", killedMarker)).isEmpty();
        assertThat(UPSTREAM.callsOf("delete_repo", expiredMarker)).isEmpty();
    }

    @Test
    void tasksCancelWithdrawsThePendingApprovalSoNoReviewCanRunIt() throws Exception {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        String marker = UUID.randomUUID().toString();
        String taskId = mcp.rpc("tools/call", call("delete_repo", marker, true)).at("/result/task/taskId").asString();
        CompletableFuture<JsonNode> waiting = mcp.rpcLater("tasks/result", taskParams(taskId));

        JsonNode cancelled = mcp.rpc("tasks/cancel", taskParams(taskId)).get("result");
        assertThat(cancelled.get("status").asString()).as("cancelled before the answer").isEqualTo("cancelled");
        assertThat(mcp.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("cancelled");
        JsonNode ended = waiting.get(40, TimeUnit.SECONDS);
        assertThat(ended.at("/error/data/status").asString()).as(ended.toString()).isEqualTo("withdrawn");

        var approve = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + taskId + "/approve",
                ws.ownerJwt(), Map.of());
        assertThat(approve.status()).as("nothing left to approve: " + approve.rawBody()).isIn(404, 409);
        await().atMost(Duration.ofSeconds(20)).until(() -> "withdrawn".equals(client().send("GET",
                "/functions/v1/mcp-gate/status/" + taskId, ws.apiKey(), null).text("status")));
        JsonNode again = mcp.rpc("tasks/cancel", taskParams(taskId));
        assertThat(again.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(again.at("/error/message").asString()).contains("'cancelled'");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).isEmpty();
        writeTranscript("2025-11-25-held-call-cancelled.txt", mcp.transcript());
    }

    @Test
    void anotherKeyOrWorkspaceGetsTheNotFoundAnswerForTheTask() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient owner = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        String marker = UUID.randomUUID().toString();
        String taskId = owner.rpc("tools/call", call("delete_repo", marker, true)).at("/result/task/taskId").asString();

        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "other agent", "scopes", List.of("mcp")));
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        TestWorkspace elsewhere = connectedWorkspace();
        List<McpTaskClient> others = List.of(
                McpTaskClient.initialized(gateway(), issued.text("key"), UTILITY),
                McpTaskClient.initialized(gateway(), elsewhere.apiKey(), UTILITY));
        for (McpTaskClient other : others) {
            for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
                JsonNode answer = other.rpc(method, taskParams(taskId));
                assertThat(answer.at("/error/code").asInt()).as(method + " " + answer).isEqualTo(-32602);
                assertThat(answer.at("/error/message").asString()).contains("Task not found");
            }
            assertThat(other.rpc("tasks/list", params()).at("/result/tasks")).extracting(t -> t.get("taskId").asString())
                    .doesNotContain(taskId);
        }
        JsonNode stateless = McpTaskClient.stateless(gateway(), issued.text("key"), true).rpc("tasks/get", taskParams(taskId));
        assertThat(stateless.at("/error/code").asInt()).isEqualTo(-32602);
        // still the owner's, still pending
        assertThat(owner.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("working");
        assertThat(owner.rpc("tasks/get", taskParams(UUID.randomUUID().toString())).at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(owner.rpc("tasks/get", taskParams("not-a-task")).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void anAllowedCallAskedForAsATaskIsACompletedTaskThatEveryReplicaAnswers() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        String marker = UUID.randomUUID().toString();
        JsonNode task = mcp.rpc("tools/call", call("list_repos", marker, true)).at("/result/task");
        assertThat(task.get("status").asString()).isEqualTo("completed");
        String taskId = task.get("taskId").asString();
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(1);

        JsonNode result = mcp.rpc("tasks/result", taskParams(taskId)).get("result");
        assertThat(result.at("/content/0/text").asString()).isEqualTo("list_repos done " + marker);
        assertThat(result.at("/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
        // another replica reads the kept result
        McpTaskClient elsewhere = mcp.at(EdgeReplica.baseUrl());
        assertThat(elsewhere.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("completed");
        assertThat(elsewhere.rpc("tasks/result", taskParams(taskId)).at("/result/content/0/text").asString())
                .isEqualTo("list_repos done " + marker);
        assertThat(mcp.rpc("tasks/list", params()).at("/result/tasks")).extracting(t -> t.get("taskId").asString()).contains(taskId);
        assertThat(UPSTREAM.callsOf("list_repos", marker)).hasSize(1);
    }

    @Test
    void tasksListIsPaginatedNewestFirst() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            made.add(0, mcp.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), true)).at("/result/task/taskId").asString());
        }
        // the read model shows new tasks a moment after they were made; pages of two (the harness's list-page-size)
        List<Integer> pageSizes = new ArrayList<>();
        List<String> listed = await().atMost(Duration.ofSeconds(20)).until(() -> {
            pageSizes.clear();
            List<String> all = new ArrayList<>();
            String cursor = null;
            do {
                ObjectNode page = params();
                if (cursor != null) {
                    page.put("cursor", cursor);
                }
                JsonNode answer = mcp.rpc("tasks/list", page).get("result");
                answer.get("tasks").forEach(t -> all.add(t.get("taskId").asString()));
                pageSizes.add(answer.get("tasks").size());
                cursor = answer.has("nextCursor") ? answer.get("nextCursor").asString() : null;
            } while (cursor != null);
            return all;
        }, all -> all.size() == made.size());
        assertThat(listed).containsExactlyElementsOf(made);
        assertThat(pageSizes).containsExactly(2, 1);
        assertThat(mcp.rpc("tasks/list", params().put("cursor", "not a cursor")).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void clientsThatDoNotAskForATaskGetTodaysAnswer() {
        TestWorkspace ws = connectedWorkspace();
        // 2025-11-25 without params.task: spec 4.3's text item
        McpTaskClient utility = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        JsonNode held = utility.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), false)).get("result");
        assertThat(held.has("task")).isFalse();
        assertThat(held.at("/_meta/service/status").asString()).isEqualTo("require_approval");
        assertThat(held.at("/content/0/text").asString()).contains("/functions/v1/mcp-gate/status/");
        // an older revision asking anyway is not answered with a task, has no task capability and no task methods
        McpTaskClient older = McpTaskClient.initialized(gateway(), ws.apiKey(), "2025-06-18");
        assertThat(older.initializeResult().at("/capabilities/tasks").isMissingNode()).isTrue();
        JsonNode ignored = older.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), true)).get("result");
        assertThat(ignored.has("task")).isFalse();
        assertThat(ignored.at("/_meta/service/status").asString()).isEqualTo("require_approval");
        assertThat(older.rpc("tools/list", params()).at("/result/tools/0/execution").isMissingNode()).isTrue();
        assertThat(older.rpc("tasks/get", taskParams(ignored.at("/_meta/service/approvalRequestId").asString()))
                .at("/error/code").asInt()).isEqualTo(-32601);
        // spec 4.3's exchange: no params, no session
        JsonNode initialize = McpGateClients.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(gateway() + McpGateClients.GATE))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ws.apiKey())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}"))
                .build()).body().transform(io.agentgateway.schemas.GatewayJson.MAPPER::readTree);
        assertThat(initialize.at("/result/protocolVersion").asString()).isEqualTo("2024-11-05");
        assertThat(initialize.at("/result/capabilities/tasks").isMissingNode()).isTrue();
    }

    // ---- 2026-07-28 ----

    @Test
    void statelessClientsWithTheExtensionGetATaskAndPollItsResultInline() throws IOException {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.stateless(gateway(), ws.apiKey(), true);
        JsonNode discovered = mcp.rpc("server/discover", params()).get("result");
        assertThat(discovered.get("supportedVersions").get(0).asString()).isEqualTo("2026-07-28");
        assertThat(discovered.at("/capabilities/extensions/io.modelcontextprotocol~1tasks").isObject()).isTrue();
        assertThat(discovered.at("/capabilities/tasks").isMissingNode()).isTrue();
        assertThat(discovered.get("resultType").asString()).isEqualTo("complete");

        String marker = UUID.randomUUID().toString();
        JsonNode created = mcp.rpc("tools/call", rich("delete_repo", marker, false)).get("result");
        assertThat(created.get("resultType").asString()).isEqualTo("task");
        assertThat(created.has("task")).as("flat, no wrapper").isFalse();
        String taskId = created.get("taskId").asString();
        assertThat(created.get("status").asString()).isEqualTo("working");
        assertThat(created.get("statusMessage").asString()).contains(taskId).contains("expires at");
        assertThat(created.get("ttlMs").asLong()).isGreaterThanOrEqualTo(Duration.ofHours(48).toMillis());
        assertThat(created.get("pollIntervalMs").asLong()).isPositive();
        assertThat(created.at("/_meta/service/approvalRequestId").asString()).isEqualTo(taskId);

        JsonNode working = mcp.rpc("tasks/get", taskParams(taskId)).get("result");
        assertThat(working.get("resultType").asString()).isEqualTo("complete");
        assertThat(working.get("status").asString()).isEqualTo("working");
        assertThat(working.has("result")).isFalse();
        review(ws, taskId, "approve", "go");
        JsonNode completed = awaitTask(mcp, taskId, "completed");
        assertThat(completed.at("/result/content/0/text").asString()).isEqualTo("delete_repo done " + marker);
        assertThat(completed.at("/result/structuredContent/marker").asString()).isEqualTo(marker);
        assertThat(completed.at("/result/content/1/mimeType").asString()).isEqualTo("image/png");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);

        // what this revision has not: tasks/result and tasks/list (404, as the revision answers a method it has not)
        assertThat(mcp.refused("tasks/result", taskParams(taskId), 404).at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(mcp.refused("tasks/list", params(), 404).at("/error/code").asInt()).isEqualTo(-32601);
        // cancellation is cooperative here: an ended task is acknowledged too; an unknown one is not found
        JsonNode ack = mcp.rpc("tasks/cancel", taskParams(taskId)).get("result");
        assertThat(ack.get("resultType").asString()).isEqualTo("complete");
        assertThat(ack.has("status")).isFalse();
        assertThat(mcp.rpc("tasks/update", taskParams(taskId).set("inputResponses", params())).at("/result/resultType")
                .asString()).isEqualTo("complete");
        assertThat(mcp.rpc("tasks/get", taskParams(UUID.randomUUID().toString())).at("/error/code").asInt()).isEqualTo(-32602);

        // allowed: the result as it is (the server decides: no task)
        JsonNode allowed = mcp.rpc("tools/call", call("list_repos", marker, false)).get("result");
        assertThat(allowed.get("resultType").asString()).isEqualTo("complete");
        assertThat(allowed.at("/content/0/text").asString()).isEqualTo("list_repos done " + marker);
        writeTranscript("2026-07-28-held-call-approved.txt", mcp.transcript());
    }

    @Test
    void statelessTasksFailWithTheErrorInlineAndCancelWithdraws() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.stateless(gateway(), ws.apiKey(), true);
        String marker = UUID.randomUUID().toString();
        String rejected = mcp.rpc("tools/call", call("delete_repo", marker, false)).at("/result/taskId").asString();
        review(ws, rejected, "reject", "no");
        JsonNode failed = awaitTask(mcp, rejected, "failed");
        assertThat(failed.at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(failed.at("/error/data/status").asString()).isEqualTo("rejected");
        assertThat(failed.has("result")).isFalse();

        String withdrawn = mcp.rpc("tools/call", call("delete_repo", marker, false)).at("/result/taskId").asString();
        assertThat(mcp.rpc("tasks/cancel", taskParams(withdrawn)).at("/result/resultType").asString()).isEqualTo("complete");
        assertThat(awaitTask(mcp, withdrawn, "cancelled").has("error")).isFalse();
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).isEmpty();
    }

    @Test
    void statelessClientsWithoutTheExtensionGetTodaysAnswerAndNoTaskMethods() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient mcp = McpTaskClient.stateless(gateway(), ws.apiKey(), false);
        JsonNode held = mcp.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), false)).get("result");
        assertThat(held.get("resultType").asString()).isEqualTo("complete");
        assertThat(held.at("/_meta/service/status").asString()).isEqualTo("require_approval");
        assertThat(held.at("/content/0/text").asString()).contains("/functions/v1/mcp-gate/status/");
        JsonNode missing = mcp.refused("tasks/get", taskParams(held.at("/_meta/service/approvalRequestId").asString()), 400);
        assertThat(missing.at("/error/code").asInt()).isEqualTo(-32021);
        assertThat(missing.at("/error/data/requiredCapabilities/extensions/io.modelcontextprotocol~1tasks").isObject()).isTrue();
        ObjectNode unknownVersion = params();
        unknownVersion.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "1900-01-01");
        JsonNode refused = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY).refused("tools/list", unknownVersion, 400);
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32022);
        assertThat(refused.at("/error/data/supported").toString()).contains("2026-07-28", "2025-11-25");
    }

    // ---- restart, other replicas ----

    /** A replica of the ingress that is stopped after the hold, and a new one on its reply partition after it. */
    @Test
    void aRestartedGatewayAnswersTheTaskBetweenTheHoldAndItsResult() throws Exception {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        String taskId;
        McpTaskClient before;
        try (IngressReplica first = new IngressReplica(1, Map.of())) {
            before = McpTaskClient.initialized(first.baseUrl(), ws.apiKey(), UTILITY);
            taskId = before.rpc("tools/call", call("delete_repo", marker, true)).at("/result/task/taskId").asString();
            assertThat(before.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("working");
        }
        try (IngressReplica restarted = new IngressReplica(1, Map.of())) {
            // the same client (its sealed session) on the replica that replaced the stopped one
            McpTaskClient after = before.at(restarted.baseUrl());
            assertThat(after.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("working");
            CompletableFuture<JsonNode> result = after.rpcLater("tasks/result", taskParams(taskId));
            review(ws, taskId, "approve", "after the restart");
            JsonNode answer = result.get(40, TimeUnit.SECONDS);
            assertThat(answer.at("/result/content/0/text").asString()).as(answer.toString()).isEqualTo("delete_repo done " + marker);
            // and any other replica answers it the same
            assertThat(before.at(gateway()).rpc("tasks/get", taskParams(taskId)).at("/result/status").asString())
                    .isEqualTo("completed");
        }
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
    }

    /** tasks/result never waits past gateway.mcp.tasks.result-wait: it says the task is still working. */
    @Test
    void aTasksResultStillWorkingAtTheCapIsAnsweredSoAndTheTaskGoesOn() {
        TestWorkspace ws = connectedWorkspace();
        try (IngressReplica shortWait = new IngressReplica(1, Map.of("gateway.mcp.tasks.result-wait", "PT2S"))) {
            McpTaskClient mcp = McpTaskClient.initialized(shortWait.baseUrl(), ws.apiKey(), UTILITY);
            String taskId = mcp.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), true))
                    .at("/result/task/taskId").asString();
            long start = System.nanoTime();
            JsonNode answer = mcp.rpc("tasks/result", taskParams(taskId));
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            assertThat(waited).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(10));
            assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32603);
            assertThat(answer.at("/error/message").asString()).contains("still working");
            assertThat(answer.at("/error/data/status").asString()).isEqualTo("working");
            assertThat(mcp.rpc("tasks/get", taskParams(taskId)).at("/result/status").asString()).isEqualTo("working");
        }
    }

    /**
     * A replica whose PostgreSQL cannot be reached: what needs the read model is -32603 saying so (never a 500 or a
     * hang); a pending task still answers from the decision stream, and an allowed call's task from the replica itself.
     */
    @Test
    void withoutPostgreSqlWhatNeedsTheReadModelIsAJsonRpcErrorAndPendingTasksStillAnswer() {
        TestWorkspace ws = connectedWorkspace();
        McpTaskClient owner = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY);
        String rejected = owner.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), true))
                .at("/result/task/taskId").asString();
        review(ws, rejected, "reject", "no");
        awaitTask(owner, rejected, "failed");
        String pending = owner.rpc("tools/call", call("delete_repo", UUID.randomUUID().toString(), true))
                .at("/result/task/taskId").asString();
        try (IngressReplica noDatabase = new IngressReplica(1, Map.of(
                "spring.datasource.url", "jdbc:postgresql://127.0.0.1:9/gateway",
                "spring.datasource.hikari.connection-timeout", "500",
                // its executor would hold approvals of other workspaces while it cannot read them
                "gateway.executor.enabled", "false"))) {
            McpTaskClient mcp = owner.at(noDatabase.baseUrl());
            assertThat(mcp.rpc("tasks/get", taskParams(pending)).at("/result/status").asString()).isEqualTo("working");
            for (JsonNode answer : List.of(mcp.rpc("tasks/get", taskParams(rejected)), mcp.rpc("tasks/list", params()))) {
                assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32603);
                assertThat(answer.at("/error/message").asString()).contains("task records cannot be read");
            }
            String marker = UUID.randomUUID().toString();
            JsonNode allowed = mcp.rpc("tools/call", call("list_repos", marker, true)).at("/result/task");
            assertThat(allowed.get("status").asString()).isEqualTo("completed");
            assertThat(mcp.rpc("tasks/result", taskParams(allowed.get("taskId").asString())).at("/result/content/0/text")
                    .asString()).isEqualTo("list_repos done " + marker);
        }
    }

    // ---- an upstream's error after an allow names the evaluation ----

    @Test
    void anUpstreamsJsonRpcErrorOnAnAllowedCallCarriesTheAuditLogIdAndCorrelationIdOnEveryTransport() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        for (String[] upstream : List.of(new String[] {UPSTREAM.streamableUrl(), "http"}, new String[] {UPSTREAM.sseUrl(), "sse"})) {
            McpGateClients.connect(ws, upstream[0], upstream[1], "bearer", "t");
            ObjectNode failing = call("list_repos", UUID.randomUUID().toString(), false);
            ((ObjectNode) failing.get("arguments")).put("fail", "rpc");

            JsonNode json = McpTaskClient.initialized(gateway(), ws.apiKey(), UTILITY).rpc("tools/call", failing);
            assertThat(json.at("/error/code").asInt()).as(upstream[1] + " " + json).isEqualTo(-32050);
            assertThat(json.at("/error/data/hint").asString()).isEqualTo("try later");
            assertThat(json.at("/error/data/auditLogId").asString()).isNotBlank();
            assertThat(json.at("/error/data/correlationId").asString()).isNotBlank();

            // the HTTP+SSE client transport answers on its event stream: the same error, the same data
            try (var sdk = McpGateClients.initialized(McpGateClients.sse(gateway(), ws.apiKey(), null))) {
                var error = org.assertj.core.api.Assertions.catchThrowableOfType(io.modelcontextprotocol.spec.McpError.class,
                        () -> sdk.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("list_repos",
                                Map.of("marker", "sse", "fail", "rpc"))));
                JsonNode data = io.agentgateway.schemas.GatewayJson.MAPPER.valueToTree(error.getJsonRpcError().data());
                assertThat(error.getJsonRpcError().code()).isEqualTo(-32050);
                assertThat(data.get("auditLogId").asString()).as(upstream[1]).isNotBlank();
                assertThat(data.get("correlationId").asString()).isNotBlank();
            }
        }
    }
}
