package io.agentgateway.benchmark;

import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.gateway.GatewayProcesses;
import io.agentgateway.benchmark.measure.ClosedLoopCpu;
import io.agentgateway.benchmark.measure.CpuBreakdown;
import io.agentgateway.benchmark.peers.BenchMcpUpstream;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How long after a held MCP call ran a waiting 2025-11-25 {@code tasks/result} answers, with the task watch woken by
 * the decision stream's events ({@code gateway.mcp.tasks.watch=events}, the default) against the periodic read of the
 * read model it replaced ({@code watch=poll} at its default {@code watch-interval}, PT0.5S), in one run on one gateway:
 * the embedded default's ingress watches by events, a second ingress replica on the same broker and database
 * ({@code EmbeddedGateway.startIngressReplica}) by polling.
 *
 * <p>Each round holds a {@code tools/call} of {@code delete_repo} as a task, sends its {@code tasks/result} to both
 * ingresses, approves it through the admin API after a random 0.2–0.7 s (the rounds fall anywhere in a poll's period),
 * and measures, for each ingress, from the moment the upstream received the approved call (the approval executor ran
 * it: {@link BenchMcpUpstream#receivedAt}, same JVM, same clock) to the moment the answer with the call's result
 * arrived. {@code bench.taskRounds} rounds (60) after {@code bench.taskWarmup} (10).
 *
 * <p>Then what waiting costs: the CPU of this JVM and PostgreSQL per second while {@code bench.taskWaits} (40) tasks
 * wait on one ingress for {@code bench.taskIdleSeconds} (20 s), nothing approved, against the same span with nothing
 * waiting, measured first (the tasks are opened {@code bench.taskSettleSeconds}, 30 s, before: what opening them and
 * their approval notifications cost is over by then).
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g
 * -Dloader.main=io.agentgateway.benchmark.McpTaskWaitBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}.
 */
public final class McpTaskWaitBenchmark {
    private static final String GATE = "/functions/v1/mcp-gate/sse";
    private static final String REVISION = "2025-11-25";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private McpTaskWaitBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("bench.taskRounds", 60);
        int warmup = Integer.getInteger("bench.taskWarmup", 10);
        int waits = Integer.getInteger("bench.taskWaits", 40);
        Duration idle = Duration.ofSeconds(Integer.getInteger("bench.taskIdleSeconds", 20));
        Path dataDir = Files.createTempDirectory("gateway-mcp-tasks-bench-");
        GatewayProcesses processes = ClosedLoopCpu.embeddedIn(dataDir);
        Map<String, String> properties = new HashMap<>(BenchmarkGateway.PROPERTIES);
        // the idle phase's waits end on their own a little after it (-32603: still working)
        properties.put("gateway.mcp.tasks.result-wait", "PT" + (idle.toSeconds() + 5) + "S");
        try (EmbeddedGateway gateway = EmbeddedGateway.start(LauncherSettings.ephemeral(dataDir), properties);
             BenchMcpUpstream upstream = BenchMcpUpstream.start()) {
            Map<String, String> polling = new HashMap<>(properties);
            polling.put("gateway.mcp.tasks.watch", "poll");
            String pollingUrl = EmbeddedGateway.baseUrlOf(gateway.startIngressReplica(1, polling));

            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            var workspace = WorkspaceBootstrap.create(admin, gateway.operatorJwt(), jwt, "mcp task benchmark", List.of("mcp"));
            connect(admin, jwt, workspace.workspaceId(), upstream.url());
            Gate events = Gate.initialized(gateway.baseUrl(), workspace.apiKey());
            Gate poll = Gate.initialized(pollingUrl, workspace.apiKey());

            System.out.printf(Locale.ROOT, "%nwarm-up: %d rounds, then %d measured%n", warmup, rounds);
            Histogram byEvents = new Histogram(3);
            Histogram byPolling = new Histogram(3);
            for (int round = 0; round < warmup + rounds; round++) {
                String marker = UUID.randomUUID().toString();
                String taskId = events.heldTask(marker);
                CompletableFuture<Long> answeredByEvents = events.resultArrival(taskId, marker);
                CompletableFuture<Long> answeredByPolling = poll.resultArrival(taskId, marker);
                Thread.sleep(ThreadLocalRandom.current().nextLong(200, 700));
                approve(admin, jwt, workspace.workspaceId(), taskId);
                long eventsAt = answeredByEvents.get(30, TimeUnit.SECONDS);
                long pollingAt = answeredByPolling.get(30, TimeUnit.SECONDS);
                Long ranAt = upstream.receivedAt(marker);
                if (ranAt == null) {
                    throw new IllegalStateException("the upstream never received the approved call " + marker);
                }
                if (round >= warmup) {
                    byEvents.recordValue(Math.max(1, (eventsAt - ranAt) / 1_000));
                    byPolling.recordValue(Math.max(1, (pollingAt - ranAt) / 1_000));
                }
            }
            System.out.printf(Locale.ROOT, "%ntasks/result answered after the upstream received the approved call, %d rounds"
                    + " (%d cores):%n", rounds, Runtime.getRuntime().availableProcessors());
            print("poll every PT0.5S", byPolling);
            print("events (default)", byEvents);
            System.out.printf(Locale.ROOT, "  events / poll: p50 %.3f, mean %.3f%n",
                    byEvents.getValueAtPercentile(50) / (double) byPolling.getValueAtPercentile(50),
                    byEvents.getMean() / byPolling.getMean());

            // the tasks first: opening them (and the notifications each approval request sends) is done before anything
            // is measured; then the same span with nothing waiting, with the waits on the polling ingress, on the other
            List<String> pollTasks = events.heldTasks(waits);
            List<String> eventTasks = events.heldTasks(waits);
            Thread.sleep(Duration.ofSeconds(Integer.getInteger("bench.taskSettleSeconds", 30)).toMillis());
            double quiet = cpuMillisPerSecond(processes, idle, List::of);
            double whilePolling = cpuMillisPerSecond(processes, idle, () -> poll.waitFor(pollTasks));
            double whileEvents = cpuMillisPerSecond(processes, idle, () -> events.waitFor(eventTasks));
            System.out.printf(Locale.ROOT, "%nCPU of this JVM and PostgreSQL while %d tasks wait %d s, nothing approved:%n",
                    waits, idle.toSeconds());
            System.out.printf(Locale.ROOT, "  nothing waiting     %7.1f ms/s%n", quiet);
            printWaiting("poll every PT0.5S", whilePolling, quiet, waits);
            printWaiting("events (default)", whileEvents, quiet, waits);
        }
        // the SDK server and the event loops may leave threads behind; the figures are printed
        System.exit(0);
    }

    /** An ingress's MCP gate, spoken to in raw JSON-RPC on a session of the 2025-11-25 revision. */
    private record Gate(String baseUrl, String key, String session) {
        static Gate initialized(String baseUrl, String key) throws Exception {
            ObjectNode params = GatewayJson.MAPPER.createObjectNode().put("protocolVersion", REVISION);
            params.putObject("capabilities");
            params.putObject("clientInfo").put("name", "bench").put("version", "1");
            HttpResponse<String> answer = new Gate(baseUrl, key, null).post(rpc("initialize", params)).get(30, TimeUnit.SECONDS);
            String session = answer.headers().firstValue("Mcp-Session-Id")
                    .orElseThrow(() -> new IllegalStateException("initialize opened no session: " + answer.body()));
            return new Gate(baseUrl, key, session);
        }

        CompletableFuture<HttpResponse<String>> post(String body) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + GATE)).timeout(Duration.ofSeconds(90))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (session != null) {
                request.header("Mcp-Session-Id", session);
            }
            return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        /** A held delete_repo asked for as a task: its task id. */
        String heldTask(String marker) throws Exception {
            ObjectNode params = GatewayJson.MAPPER.createObjectNode().put("name", BenchMcpUpstream.HELD_TOOL);
            params.putObject("arguments").put("marker", marker);
            params.putObject("task");
            JsonNode answer = GatewayJson.MAPPER.readTree(post(rpc("tools/call", params)).get(30, TimeUnit.SECONDS).body());
            String taskId = answer.at("/result/task/taskId").asString("");
            if (taskId.isEmpty() || !"working".equals(answer.at("/result/task/status").asString())) {
                throw new IllegalStateException("delete_repo was not held as a task: " + answer);
            }
            return taskId;
        }

        /** When (System.nanoTime) the task's {@code tasks/result} arrived with the call's result. */
        CompletableFuture<Long> resultArrival(String taskId, String marker) {
            return post(rpc("tasks/result", GatewayJson.MAPPER.createObjectNode().put("taskId", taskId))).thenApply(answer -> {
                long at = System.nanoTime();
                if (!answer.body().contains("deleted " + marker)) {
                    throw new IllegalStateException("tasks/result did not answer the call's result: " + answer.body());
                }
                return at;
            });
        }

        /** {@code count} held tasks. */
        List<String> heldTasks(int count) throws Exception {
            List<String> tasks = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                tasks.add(heldTask(UUID.randomUUID().toString()));
            }
            return tasks;
        }

        /** A {@code tasks/result} waiting here for each task. */
        List<CompletableFuture<HttpResponse<String>>> waitFor(List<String> taskIds) {
            return taskIds.stream().map(taskId -> post(rpc("tasks/result",
                    GatewayJson.MAPPER.createObjectNode().put("taskId", taskId)))).toList();
        }
    }

    private interface Waits {
        List<CompletableFuture<HttpResponse<String>>> open() throws Exception;
    }

    /** CPU per second of this JVM and PostgreSQL over {@code span} while the waits {@code waits} opened are open. */
    private static double cpuMillisPerSecond(GatewayProcesses processes, Duration span, Waits waits) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> open = waits.open();
        Thread.sleep(1_000); // the waits are in place, the events reader positioned
        CpuBreakdown.Snapshot before = CpuBreakdown.take(processes);
        Thread.sleep(span.toMillis());
        CpuBreakdown.Snapshot after = CpuBreakdown.take(processes);
        for (CompletableFuture<HttpResponse<String>> wait : open) {
            wait.get(60, TimeUnit.SECONDS); // -32603 (still working) at result-wait
        }
        return after.millisSince(before) / span.toSeconds();
    }

    private static String rpc(String method, ObjectNode params) {
        ObjectNode request = GatewayJson.MAPPER.createObjectNode();
        request.put("jsonrpc", "2.0").put("id", UUID.randomUUID().toString()).put("method", method);
        request.set("params", params);
        return request.toString();
    }

    private static void connect(GatewayHttpClient admin, String jwt, String workspace, String url) {
        var put = admin.send("PUT", "/admin/v1/workspaces/" + workspace + "/tools/mcp", jwt, Map.of(
                "mcp_server_url", url, "mcp_transport", "http", "mcp_auth_type", "bearer",
                "config", Map.of("access_token", "upstream-token")));
        if (put.status() != 200) {
            throw new IllegalStateException("mcp connection not stored: " + put.status() + " " + put.rawBody());
        }
    }

    /** The owner approves it once the admin API shows it (the read model has it a moment after it was opened). */
    private static void approve(GatewayHttpClient admin, String jwt, String workspace, String approvalId)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        GatewayHttpClient.Response approved;
        do {
            approved = admin.send("POST", "/admin/v1/workspaces/" + workspace + "/approvals/" + approvalId + "/approve",
                    jwt, Map.of("reason", "bench"));
            if (approved.status() == 200) {
                return;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException("approve answered " + approved.status() + ": " + approved.rawBody());
    }

    private static void print(String label, Histogram micros) {
        System.out.printf(Locale.ROOT, "  %-18s p50 %7.1f ms  p90 %7.1f ms  p99 %7.1f ms  max %7.1f ms  mean %7.1f ms%n",
                label, micros.getValueAtPercentile(50) / 1e3, micros.getValueAtPercentile(90) / 1e3,
                micros.getValueAtPercentile(99) / 1e3, micros.getMaxValue() / 1e3, micros.getMean() / 1e3);
    }

    private static void printWaiting(String label, double millisPerSecond, double quiet, int waits) {
        System.out.printf(Locale.ROOT, "  %-18s %7.1f ms/s  (%+.1f ms/s over nothing waiting: %.3f ms per waiting task"
                + " and second)%n", label, millisPerSecond, millisPerSecond - quiet, (millisPerSecond - quiet) / waits);
    }
}
