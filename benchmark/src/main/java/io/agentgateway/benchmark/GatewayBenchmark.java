package io.agentgateway.benchmark;

import io.agentgateway.benchmark.data.ConditionalPolicies;
import io.agentgateway.benchmark.gateway.GatewayJarProcess;
import io.agentgateway.benchmark.gateway.TracingMode;
import io.agentgateway.benchmark.measure.ClosedLoopProfile;
import io.agentgateway.benchmark.load.HttpFloorServer;
import io.agentgateway.benchmark.load.JitWarmup;
import io.agentgateway.benchmark.load.LoadRunner;
import io.agentgateway.benchmark.load.NettyLoadClient;
import io.agentgateway.benchmark.load.OpenLoopPlan;
import io.agentgateway.benchmark.load.OpenLoopReport.Measured;
import io.agentgateway.benchmark.load.OpenLoopReport.Path;
import io.agentgateway.benchmark.load.OpenLoopReport;
import io.agentgateway.benchmark.load.RequestReplyFloor;
import io.agentgateway.benchmark.measure.CpuBreakdown;
import io.agentgateway.benchmark.measure.CpuTime;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import io.agentgateway.benchmark.measure.ResidentMemorySampler;
import io.agentgateway.benchmark.peers.OtlpReceiver;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Latency, throughput and CPU of evaluate-action on the embedded default, beside its two floors measured in
 * the same run: the raw Kafka request-reply ({@link RequestReplyFloor}) and plain HTTP ({@link HttpFloorServer}).
 *
 * <p>The gateway runs as users run it, {@code java -jar} of the launcher in a process of its own
 * ({@link GatewayJarProcess}), set up only through its HTTP API and first-start seeding, so the same
 * benchmark measures an older build's jar. The headline is an open-loop series: at each offered rate
 * (1, 10, 100, 500, 1000, 2000/s by default) calls start on a fixed schedule over kept-alive connections
 * and latency counts from the intended start, so a stall shows up in the percentiles (no coordinated
 * omission). Beside it: the highest rate held with p99 within 25 ms, the CPU the gateway's process and
 * PostgreSQL spend per decision at each rate (with the idle baseline), the audit row's delay into
 * PostgreSQL, a closed loop (the most a pool of callers gets through), the peak memory, and on request
 * the same under exactly-once.
 *
 * <p>Run from the repository root: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -jar
 * benchmark/target/benchmark.jar}. Options (system properties) are listed in benchmark/README.md.
 */
public final class GatewayBenchmark {
    private static final String EVALUATE = "/functions/v1/evaluate-action";

    private GatewayBenchmark() {}

    public static void main(String[] args) throws Exception {
        // the floors' Kafka clients log their whole configuration at INFO: only warnings here
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(ch.qos.logback.classic.Level.WARN);
        OpenLoopPlan plan = OpenLoopPlan.fromSystemProperties();
        int clients = Integer.getInteger("bench.clients", 64);
        Duration closedPhase = Duration.ofSeconds(Integer.getInteger("bench.closedSeconds", 20));
        Duration idlePhase = Duration.ofSeconds(Integer.getInteger("bench.idleSeconds", 10));
        Duration jitMin = Duration.ofSeconds(Integer.getInteger("bench.jitWarmupSeconds", 60));
        Duration jitMax = Duration.ofSeconds(Integer.getInteger("bench.jitWarmupMaxSeconds", 300));
        Duration floorWarmup = Duration.ofSeconds(Integer.getInteger("bench.floorWarmupSeconds", 20));
        double p99TargetMs = Double.parseDouble(System.getProperty("bench.p99TargetMs", "25"));
        boolean exactlyOnce = Boolean.getBoolean("bench.exactlyOnce");
        int exactlyOnceRate = Integer.getInteger("bench.exactlyOnceRate", 500);
        List<String> jvmOptions = Arrays.stream(System.getProperty("bench.gatewayJvmOptions", GatewayJarProcess.DEFAULT_JVM_OPTIONS)
                .trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        java.nio.file.Path jar = GatewayJarProcess.jarFromSettings();
        TracingMode tracing = TracingMode.fromSystemProperties();

        System.out.printf(Locale.ROOT, "gateway: java %s -jar %s%n", String.join(" ", jvmOptions), jar);
        System.out.printf(Locale.ROOT, "tracing: %s%n", switch (tracing) {
            case OFF -> "off (the default)";
            case ON -> "on, sampling 100 %, export off (OTEL_TRACES_EXPORTER=none)";
            case EXPORT -> "on, sampling 100 %, exported over OTLP/HTTP to a receiver in this process";
        });
        System.out.printf(Locale.ROOT, "open loop: %s; three series (Kafka floor, HTTP floor, gateway) of %s each, so about %s"
                        + " after the warm-up (at least %d s)%n",
                String.join(", ", plan.phases().stream().map(p -> p.rate() + "/s for " + p.length().toSeconds() + " s").toList()),
                minutes(plan.perSeries()), minutes(plan.perSeries().multipliedBy(3).plus(closedPhase).plus(idlePhase)
                        .plus(floorWarmup.multipliedBy(2)).plusSeconds(30)), jitMin.toSeconds());

        byte[] body = GatewayJson.MAPPER.writeValueAsBytes(Map.of(
                "tool", "chat", "action", "message.send", "riskLevel", "low", "agentId", "bench-agent",
                "payload", Map.of("channel", "#ops", "text", "hello")));
        OpenLoopReport report = new OpenLoopReport(p99TargetMs);
        try (OtlpReceiver receiver = new OtlpReceiver();
             GatewayJarProcess gateway = GatewayJarProcess.start(jar, jvmOptions, tracing.environment(receiver.baseUrl()));
             HttpFloorServer httpFloor = new HttpFloorServer()) {
            System.out.printf(Locale.ROOT, "gateway pid %d at %s, Kafka %s; its output: %s%n", gateway.pid(), gateway.baseUrl(),
                    gateway.bootstrapServers(), gateway.log());
            GatewayJarProcess.Workspace ws = gateway.workspace();
            if ("all".equals(System.getProperty("bench.features"))) {
                ConditionalPolicies.realistic(gateway.baseUrl(), ws.workspaceId(), ws.ownerJwt());
            }
            if (Integer.getInteger("bench.policies", 0) > 0) {
                ConditionalPolicies.create(gateway.baseUrl(), ws.workspaceId(), ws.ownerJwt(), Integer.getInteger("bench.policies"),
                        Boolean.getBoolean("bench.policyConditions"));
            }
            OpenLoopReport.CpuSpan closed;
            double closedPerSecond;
            double peakMiB;
            double peakJvmMiB;
            try (ResidentMemorySampler memory = new ResidentMemorySampler(gateway.pid(), gateway.postgres());
                 NettyLoadClient load = new NettyLoadClient(gateway.baseUrl(), ws.apiKey(), Math.max(clients, 256));
                 NettyLoadClient httpLoad = new NettyLoadClient(httpFloor.baseUrl(), ws.apiKey(), Math.max(clients, 256));
                 RequestReplyFloor kafkaFloor = new RequestReplyFloor(gateway.bootstrapServers(), "at_least_once")) {
                Map<Path, LoadRunner.Call> calls = Map.of(Path.GATEWAY, load.post(EVALUATE, body),
                        Path.HTTP_FLOOR, httpLoad.post(EVALUATE, body), Path.KAFKA_FLOOR, kafkaFloor.call());

                // until the JITs have settled: the gateway's (at least a minute, at most five: on two cores C2
                // needs minutes for the broker, Streams, Netty, Jackson and JDBC), then this process's for the floors
                JitWarmup.untilQuiet("warm-up, gateway", calls.get(Path.GATEWAY), 16, 0.10, jitMin, jitMax,
                        new CompilerMillis(gateway.pid()));
                warmUpHere("warm-up, Kafka floor", calls.get(Path.KAFKA_FLOOR), floorWarmup, jitMax);
                warmUpHere("warm-up, HTTP floor", calls.get(Path.HTTP_FLOOR), floorWarmup.dividedBy(2), jitMax);
                calls.values().forEach(LoadRunner::awaitDrained);

                report.idle(idle(gateway, idlePhase));
                System.out.printf(Locale.ROOT, "idle: the gateway's process and PostgreSQL spend %.1f ms of CPU per second (%d s, no load)%n%n",
                        report.idleBaseline().millisPerSecond(), idlePhase.toSeconds());
                for (OpenLoopPlan.Phase phase : plan.phases()) {
                    for (Path path : Path.values()) {
                        report.add(phase.rate(), path, openLoop(calls.get(path), phase.rate(), phase.length(), phase.calls(), gateway));
                    }
                    System.out.println(report.progressLine(phase.rate()));
                }

                LoadRunner.Call evaluate = calls.get(Path.GATEWAY);
                LoadRunner.awaitDrained(evaluate);
                ClosedLoopProfile profile = ClosedLoopProfile.fromSystemProperties(gateway.pid(), closedPhase);
                CpuBreakdown.Snapshot before = CpuBreakdown.take(gateway.pid(), gateway.postgres());
                long start = System.nanoTime();
                closedPerSecond = LoadRunner.closedLoopPerSecond(evaluate, clients, closedPhase);
                profile.finish();
                double seconds = (System.nanoTime() - start) / 1e9;
                closed = new OpenLoopReport.CpuSpan(before, CpuBreakdown.take(gateway.pid(), gateway.postgres()),
                        Math.round(closedPerSecond * seconds), seconds);
                peakMiB = memory.peakMiB();
                peakJvmMiB = memory.peakJvmMiB();
            }
            report.auditP99(auditDelayP99(gateway, ws.workspaceId(), report.of(Path.GATEWAY)));

            System.out.printf(Locale.ROOT, "%n=== evaluate-action, open loop (latency from the intended send time, kept-alive connections), at-least-once ===%n");
            report.printHeadline();
            report.printDetails();
            report.printHeld();
            System.out.printf(Locale.ROOT, "%nclosed loop, %d clients: %,.0f evaluations/s, CPU per decision %.3f ms (gateway process and PostgreSQL)%n",
                    clients, closedPerSecond, closed.perOperation());
            report.printCpuByComponent(Map.of("closed", closed));
            System.out.printf(Locale.ROOT, "%npeak memory of the whole embedded default (JVM + PostgreSQL, PSS): %.0f MiB, of which the JVM %.0f MiB   (target < 1536)%n",
                    peakMiB, peakJvmMiB);
            if (tracing == TracingMode.EXPORT) {
                System.out.printf(Locale.ROOT, "OTLP receiver: %,d export requests, %,.1f MiB of spans%n", receiver.requests(),
                        receiver.bytes() / 1048576.0);
            }

            if (exactlyOnce) {
                exactlyOnce(gateway, ws, body, exactlyOnceRate, plan, clients, closedPhase, jitMin, jitMax, floorWarmup, p99TargetMs);
            }
        }
        System.exit(0);
    }

    /**
     * The compliance option: the same gateway restarted with {@code exactly_once_v2} on the same data, warmed
     * up again (a new JVM), then the gateway and an exactly-once Kafka floor at one rate, and the closed loop.
     */
    private static void exactlyOnce(GatewayJarProcess gateway, GatewayJarProcess.Workspace ws, byte[] body, int rate,
            OpenLoopPlan plan, int clients, Duration closedPhase, Duration jitMin, Duration jitMax, Duration floorWarmup,
            double p99TargetMs) throws Exception {
        System.out.printf(Locale.ROOT, "%n=== exactly-once: restarting the gateway with GATEWAY_DECISION_PROCESSINGGUARANTEE=exactly_once_v2 ===%n");
        gateway.restart(Map.of("GATEWAY_DECISION_PROCESSINGGUARANTEE", "exactly_once_v2"));
        Duration length = plan.phases().stream().filter(p -> p.rate() == rate).map(OpenLoopPlan.Phase::length).findFirst()
                .orElse(closedPhase);
        OpenLoopReport report = new OpenLoopReport(p99TargetMs);
        double closedPerSecond;
        try (NettyLoadClient load = new NettyLoadClient(gateway.baseUrl(), ws.apiKey(), Math.max(clients, 256));
             RequestReplyFloor kafkaFloor = new RequestReplyFloor(gateway.bootstrapServers(), "exactly_once_v2")) {
            LoadRunner.Call evaluate = load.post(EVALUATE, body);
            JitWarmup.untilQuiet("warm-up, gateway", evaluate, 16, 0.10, jitMin, jitMax, new CompilerMillis(gateway.pid()));
            warmUpHere("warm-up, Kafka floor", kafkaFloor.call(), floorWarmup, jitMax);
            long calls = new OpenLoopPlan.Phase(rate, length).calls();
            report.add(rate, Path.KAFKA_FLOOR, openLoop(kafkaFloor.call(), rate, length, calls, gateway));
            report.add(rate, Path.GATEWAY, openLoop(evaluate, rate, length, calls, gateway));
            LoadRunner.awaitDrained(evaluate);
            closedPerSecond = LoadRunner.closedLoopPerSecond(evaluate, clients, closedPhase);
        }
        report.printHeadline();
        System.out.printf(Locale.ROOT, "closed loop, %d clients, exactly-once: %,.0f evaluations/s%n", clients, closedPerSecond);
    }

    /** One open-loop phase, with the CPU the gateway's process and PostgreSQL spent over it. */
    private static Measured openLoop(LoadRunner.Call call, int rate, Duration length, long planned, GatewayJarProcess gateway)
            throws InterruptedException {
        LoadRunner.awaitDrained(call);
        long from = System.currentTimeMillis();
        CpuBreakdown.Snapshot before = CpuBreakdown.take(gateway.pid(), gateway.postgres());
        double clientBefore = CpuTime.jvmSeconds();
        long start = System.nanoTime();
        LatencyRecorder latency = LoadRunner.openLoop(call, rate, length);
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuBreakdown.Snapshot after = CpuBreakdown.take(gateway.pid(), gateway.postgres());
        return new Measured(latency, planned, new OpenLoopReport.CpuSpan(before, after, latency.count() + latency.failures(), seconds),
                (CpuTime.jvmSeconds() - clientBefore) * 1000, from, System.currentTimeMillis());
    }

    private static OpenLoopReport.Idle idle(GatewayJarProcess gateway, Duration length) throws InterruptedException {
        CpuBreakdown.Snapshot before = CpuBreakdown.take(gateway.pid(), gateway.postgres());
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(length.toNanos());
        double seconds = (System.nanoTime() - start) / 1e9;
        return OpenLoopReport.Idle.between(before, CpuBreakdown.take(gateway.pid(), gateway.postgres()), seconds);
    }

    /** A floor runs in this process: warm it until this JVM's compilers are quiet (at most two minutes). */
    private static void warmUpHere(String label, LoadRunner.Call call, Duration min, Duration max) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        Duration atMost = max.compareTo(Duration.ofMinutes(2)) < 0 ? max : Duration.ofMinutes(2);
        JitWarmup.untilQuiet(label, call, 16, 0.10, min, atMost, jit::getTotalCompilationTime);
    }

    /**
     * p99 of (projected_at - occurred_at) over the audit rows of each gateway phase: how long after the
     * decision its audit row could be read (the read side), measured after the run, when every row is in.
     */
    private static Map<Integer, Double> auditDelayP99(GatewayJarProcess gateway, String workspaceId, Map<Integer, Measured> phases) {
        Map<Integer, Double> p99 = new LinkedHashMap<>();
        try (var c = DriverManager.getConnection(gateway.jdbcUrl(), "postgres", "postgres");
             var s = c.prepareStatement("""
                     select percentile_cont(0.99) within group (order by extract(epoch from projected_at - occurred_at) * 1000)
                     from audit_log where workspace_id = ?::uuid and occurred_at >= to_timestamp(? / 1000.0)
                       and occurred_at < to_timestamp(? / 1000.0)""")) {
            Thread.sleep(2000); // let the last phase's rows land
            for (var phase : phases.entrySet()) {
                s.setString(1, workspaceId);
                s.setLong(2, phase.getValue().fromMillis());
                s.setLong(3, phase.getValue().toMillis());
                try (var rs = s.executeQuery()) {
                    if (rs.next() && rs.getObject(1) != null) {
                        p99.put(phase.getKey(), rs.getDouble(1));
                    }
                }
            }
        } catch (Exception e) {
            System.out.println("audit delay not measured: " + e);
        }
        return p99;
    }

    private static String minutes(Duration d) {
        return String.format(Locale.ROOT, "%d min %02d s", d.toMinutes(), d.toSecondsPart());
    }

    /**
     * Milliseconds the gateway process's JIT compiler threads have spent, from /proc. Summed per thread
     * across calls, so a compiler thread the JVM retires does not take its past work with it.
     */
    static final class CompilerMillis implements LongSupplier {
        private final long pid;
        private final Map<String, Long> lastTicks = new HashMap<>();
        private long totalTicks;

        CompilerMillis(long pid) {
            this.pid = pid;
        }

        @Override
        public synchronized long getAsLong() {
            try (Stream<java.nio.file.Path> tasks = Files.list(java.nio.file.Path.of("/proc", Long.toString(pid), "task"))) {
                tasks.forEach(task -> {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        if (name.startsWith("C2 CompilerThr") || name.startsWith("C1 CompilerThr")) {
                            long ticks = CpuTime.ticksIn(stat);
                            long previous = lastTicks.getOrDefault(task.getFileName().toString(), 0L);
                            totalTicks += Math.max(0, ticks - previous);
                            lastTicks.put(task.getFileName().toString(), ticks);
                        }
                    } catch (IOException | RuntimeException gone) {
                        // the thread ended meanwhile
                    }
                });
            } catch (IOException | RuntimeException notLinux) {
                return 0;
            }
            return Math.round(totalTicks * CpuBreakdown.MILLIS_PER_TICK);
        }
    }
}
