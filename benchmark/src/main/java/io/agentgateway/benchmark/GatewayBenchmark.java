package io.agentgateway.benchmark;

import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import io.agentgateway.embedded.Directories;
import io.agentgateway.schemas.GatewayJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Latency and throughput of evaluate-action on the embedded default, measured against the raw Kafka
 * request-reply floor in the same process and run, so the ratio holds on a noisy shared machine.
 *
 * <p>Run: {@code ./mvnw -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2 -jar benchmark/target/benchmark.jar}
 * Optional system properties: {@code bench.seconds} (per phase, default 20), {@code bench.rate} (default 500),
 * {@code bench.clients} (closed loop, default 64), {@code bench.jitWarmupSeconds} (least initial warm-up, default 60;
 * it goes on, up to five minutes, until the JIT compilers take less than 10% of a core).
 */
public final class GatewayBenchmark {
    private static final String EVALUATE = "/functions/v1/evaluate-action";

    private GatewayBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = Integer.getInteger("bench.seconds", 20);
        int rate = Integer.getInteger("bench.rate", 500);
        int clients = Integer.getInteger("bench.clients", 64);
        Duration phase = Duration.ofSeconds(seconds);
        // warm-ups are closed loops: they adapt to a cold JIT instead of queueing a backlog that would
        // spill into the measured phase
        Duration warmup = Duration.ofSeconds(Math.max(10, seconds / 2));

        // a durable data directory, as the embedded default runs (PostgreSQL with fsync on), removed at the end
        Path dataDir = Files.createTempDirectory("gateway-bench-");
        GatewayProcesses processes = new GatewayProcesses(dataDir.resolve("postgres"));
        LauncherSettings settings = new LauncherSettings(dataDir, Optional.empty(), Optional.empty(), "postgres", "postgres",
                0, 0, 0, false, false);
        try (ResidentMemorySampler rss = new ResidentMemorySampler(processes);
             EmbeddedGateway gateway = EmbeddedGateway.start(settings, BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient http = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            var ws = WorkspaceBootstrap.create(http, gateway.operatorJwt(), jwt, "benchmark", List.of("evaluate"));
            NettyLoadClient load = new NettyLoadClient(gateway.baseUrl(), ws.apiKey(), Math.max(clients, 256));
            LoadRunner.Call evaluate = load.post(EVALUATE, GatewayJson.MAPPER.writeValueAsBytes(Map.of(
                    "tool", "chat", "action", "message.send", "riskLevel", "low", "agentId", "bench-agent",
                    "payload", Map.of("channel", "#ops", "text", "hello"))));

            // until the JIT has settled (at least a minute, at most five): the first measured phase
            // must not run half-compiled code
            JitWarmup.untilQuiet(evaluate, 16, 0.10, Duration.ofSeconds(Integer.getInteger("bench.jitWarmupSeconds", 60)),
                    Duration.ofMinutes(5));
            LoadRunner.awaitDrained(evaluate);
            Report report = new Report();
            List<Runnable> cpu = new java.util.ArrayList<>(); // printed after the figures
            // at-least-once (the default)
            try (RequestReplyFloor floor = new RequestReplyFloor(gateway.bootstrapServers(), "at_least_once")) {
                LoadRunner.closedLoopPerSecond(floor.call(), 16, warmup);
                var floorCpu = CpuBreakdown.take(processes);
                LatencyRecorder floorRun = LoadRunner.openLoop(floor.call(), rate, phase);
                var floorCpuAfter = CpuBreakdown.take(processes);
                cpu.add(() -> CpuBreakdown.print("floor, open loop at " + rate + "/s", floorCpu, floorCpuAfter,
                        floorRun.count() + floorRun.failures(), seconds));
                report.add("floor: Kafka request-reply, at-least-once", floorRun, rate);
            }
            LoadRunner.closedLoopPerSecond(evaluate, 16, warmup);
            long auditFrom = System.currentTimeMillis();
            var openCpu = CpuBreakdown.take(processes);
            LatencyRecorder open = LoadRunner.openLoop(evaluate, rate, phase);
            var openCpuAfter = CpuBreakdown.take(processes);
            cpu.add(() -> CpuBreakdown.print("evaluate-action, open loop at " + rate + "/s", openCpu, openCpuAfter,
                    open.count() + open.failures(), seconds));
            report.add("evaluate-action, at-least-once", open, rate);
            double auditP99 = auditLagP99Millis(gateway, ws.workspaceId(), auditFrom);
            LoadRunner.awaitDrained(evaluate);
            var closedCpu = CpuBreakdown.take(processes);
            double closed = LoadRunner.closedLoopPerSecond(evaluate, clients, phase);
            var closedCpuAfter = CpuBreakdown.take(processes);
            cpu.add(() -> CpuBreakdown.print("evaluate-action, closed loop of " + clients + " clients", closedCpu, closedCpuAfter,
                    Math.round(closed * seconds), seconds));

            // exactly-once: the compliance option
            LoadRunner.awaitDrained(evaluate);
            gateway.stopDecisionStream();
            gateway.startDecisionStream(Map.of("gateway.decision.processing-guarantee", "exactly_once_v2"));
            try (RequestReplyFloor floor = new RequestReplyFloor(gateway.bootstrapServers(), "exactly_once_v2")) {
                LoadRunner.closedLoopPerSecond(floor.call(), 16, warmup);
                report.add("floor: Kafka request-reply, exactly-once", LoadRunner.openLoop(floor.call(), rate, phase), rate);
            }
            LoadRunner.closedLoopPerSecond(evaluate, 16, warmup);
            report.add("evaluate-action, exactly-once", LoadRunner.openLoop(evaluate, rate, phase), rate);
            LoadRunner.awaitDrained(evaluate);
            double closedEos = LoadRunner.closedLoopPerSecond(evaluate, clients, phase);

            report.print();
            System.out.printf(Locale.ROOT, "%nclosed loop, %d clients, at-least-once: %,.0f evaluations/s   (target >= 3,000)%n", clients, closed);
            System.out.printf(Locale.ROOT, "closed loop, %d clients, exactly-once:  %,.0f evaluations/s%n", clients, closedEos);
            System.out.printf(Locale.ROOT, "audit row in PostgreSQL after the decision, p99 at %d/s: %.0f ms   (target <= 1000)%n", rate, auditP99);
            double ratio = report.p50("evaluate-action, at-least-once") / report.p50("floor: Kafka request-reply, at-least-once");
            System.out.printf(Locale.ROOT, "evaluate-action p50 / floor p50 (at-least-once): %.2fx   (target <= 1.5x)%n", ratio);
            cpu.forEach(Runnable::run);
            System.out.printf(Locale.ROOT, "%npeak memory of the whole embedded default (JVM + PostgreSQL, PSS): %.0f MiB, of which the JVM %.0f MiB   (target < 1536)%n",
                    rss.peakMiB(), rss.peakJvmMiB());
        }
        Directories.deleteRecursively(dataDir);
        System.exit(0);
    }

    /** p99 of (projected_at - occurred_at) over the audit rows of the measured phase. */
    private static double auditLagP99Millis(EmbeddedGateway gateway, String workspaceId, long fromMillis) throws Exception {
        Thread.sleep(2000); // let the tail of the phase land before measuring it
        try (var c = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword());
             var s = c.prepareStatement("""
                     select percentile_cont(0.99) within group (order by extract(epoch from projected_at - occurred_at) * 1000)
                     from audit_log where workspace_id = ?::uuid and occurred_at >= to_timestamp(? / 1000.0)""")) {
            s.setString(1, workspaceId);
            s.setLong(2, fromMillis);
            var rs = s.executeQuery();
            return rs.next() ? rs.getDouble(1) : Double.NaN;
        }
    }

    /** The open-loop rows of the printed table. */
    private static final class Report {
        private final Map<String, LatencyRecorder> rows = new java.util.LinkedHashMap<>();
        private final Map<String, Integer> rates = new java.util.HashMap<>();

        void add(String name, LatencyRecorder recorder, int rate) {
            rows.put(name, recorder);
            rates.put(name, rate);
        }

        double p50(String name) {
            return rows.get(name).percentileMillis(50);
        }

        void print() {
            System.out.printf(Locale.ROOT, "%n%-45s %8s %8s %8s %8s %8s %8s%n", "open loop", "rate/s", "calls", "failed", "p50 ms", "p99 ms", "max ms");
            rows.forEach((name, r) -> System.out.printf(Locale.ROOT, "%-45s %8d %8d %8d %8.2f %8.2f %8.2f%n",
                    name, rates.get(name), r.count(), r.failures(), r.percentileMillis(50), r.percentileMillis(99), r.percentileMillis(100)));
        }
    }
}
