package io.agentgateway.benchmark.measure;

import io.agentgateway.benchmark.gateway.GatewayProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where the CPU of a phase went, per component, from Linux's /proc: the threads of the JVM the embedded
 * default runs in (this one, or the gateway's own process) grouped by name (the broker, the decision
 * stream, the ingress... all run in it) plus PostgreSQL's processes. Reported per operation, so that a
 * change shows up as "the stream costs 0.2 ms less per evaluation" rather than as a throughput figure that
 * the shared machine's noise blurs.
 */
public final class CpuBreakdown {
    /** Linux's USER_HZ: utime and stime are counted in 1/100 s. */
    public static final double MILLIS_PER_TICK = 10.0;
    public static final String POSTGRES = "PostgreSQL (its processes)";
    static final String JIT = "JIT compilers";
    /** The event loops of a benchmark's own client and upstream stand-in when they share the gateway's JVM. */
    static final String BENCHMARK_PEERS = "benchmark's client and upstream";

    /** Thread-name prefixes (as /proc shows them: at most 15 characters) and the component they belong to. */
    private static final List<Map.Entry<String, String>> GROUPS = List.of(
            Map.entry("kafka-producer", "Kafka producer I/O threads"),
            Map.entry("kafka-coordina", "Kafka client heartbeats"),
            Map.entry("kafka-admin", "Kafka admin clients"),
            Map.entry("data-plane", "broker"),
            Map.entry("group-coordina", "broker"),
            Map.entry("ExpirationReap", "broker"),
            Map.entry("kafka-", "broker"),
            Map.entry("quorum", "broker"),
            Map.entry("gateway-decisi", "decision stream"),
            Map.entry("webflux-http", "ingress HTTP (Netty)"),
            Map.entry("reactor-http", "ingress HTTP (Netty)"),
            Map.entry("parallel-", "ingress HTTP (Netty)"),
            Map.entry("ingress-replie", "ingress reply listener"),
            Map.entry("ingress-live-e", "ingress events reader"),
            Map.entry("mcp-task-watch", "MCP task watch"),
            Map.entry("projectorEvent", "projector"),
            Map.entry("HikariPool", "projector"),
            Map.entry("notification", "notifier"),
            Map.entry("HttpClient-", "load generator (HTTP client)"),
            Map.entry("bench-floor", "floor (Streams step + reply consumer)"),
            Map.entry("bench-", BENCHMARK_PEERS),
            Map.entry("C2 CompilerThr", JIT),
            Map.entry("C1 CompilerThr", JIT),
            Map.entry("G1 ", "GC and VM"),
            Map.entry("GC Thread", "GC and VM"),
            Map.entry("VM Thread", "GC and VM"));

    private CpuBreakdown() {}

    /**
     * @param ticksByComponent the live threads' CPU by component, PostgreSQL as one component
     * @param processTicks     the whole JVM process's CPU, threads that ended included
     * @param postgresTicks    PostgreSQL's CPU: the postmaster, its live backends and the ones that ended
     */
    public record Snapshot(Map<String, Long> ticksByComponent, long processTicks, long postgresTicks) {
        /** CPU milliseconds of the JVM process and PostgreSQL together since {@code before}. */
        public double millisSince(Snapshot before) {
            return (processTicks - before.processTicks + postgresTicks - before.postgresTicks) * MILLIS_PER_TICK;
        }

        /** CPU milliseconds of one component since {@code before}. */
        public double millisSince(Snapshot before, String component) {
            return (ticksByComponent.getOrDefault(component, 0L) - before.ticksByComponent.getOrDefault(component, 0L))
                    * MILLIS_PER_TICK;
        }
    }

    /** This JVM, in which the embedded default runs. */
    public static Snapshot take(GatewayProcesses processes) {
        return take(ProcessHandle.current().pid(), processes);
    }

    /** The JVM process {@code pid}, in which the embedded default runs, and its PostgreSQL. */
    public static Snapshot take(long pid, GatewayProcesses processes) {
        Map<String, Long> ticks = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> read(task.resolve("stat")).ifPresent(stat -> ticks.merge(componentOf(stat.name()), stat.ticks(), Long::sum)));
        } catch (IOException | RuntimeException e) {
            return new Snapshot(Map.of(), 0, 0); // not Linux: nothing to report
        }
        long postgres = postgresTicks(processes);
        ticks.put(POSTGRES, postgres);
        return new Snapshot(ticks, CpuTime.ticksOf(pid), postgres);
    }

    /** The postmaster with the backends it has reaped (cutime, cstime), plus the live ones. */
    private static long postgresTicks(GatewayProcesses processes) {
        List<ProcessHandle> all = processes.postgres().toList();
        if (all.isEmpty()) {
            return 0;
        }
        long total = CpuTime.ticksWithReapedChildrenOf(all.get(0).pid());
        for (ProcessHandle backend : all.subList(1, all.size())) {
            total += CpuTime.ticksOf(backend.pid());
        }
        return total;
    }

    /** Prints CPU milliseconds per operation by component between two snapshots, biggest first. */
    static void print(String title, Snapshot before, Snapshot after, long operations, double seconds) {
        if (after.ticksByComponent().isEmpty() || operations == 0) {
            return;
        }
        Map<String, Double> perOp = new TreeMap<>();
        after.ticksByComponent().forEach((component, ticks) -> {
            long delta = ticks - before.ticksByComponent().getOrDefault(component, 0L);
            if (delta > 0) {
                perOp.put(component, delta * MILLIS_PER_TICK / operations);
            }
        });
        double total = perOp.values().stream().mapToDouble(Double::doubleValue).sum();
        System.out.printf(Locale.ROOT, "%nCPU per operation, %s (%,d operations in %.0f s; %.0f%% of %d cores busy)%n",
                title, operations, seconds, 100 * total * operations / 1000 / seconds / Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().availableProcessors());
        perOp.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).forEach(e ->
                System.out.printf(Locale.ROOT, "  %-40s %7.3f ms%n", e.getKey(), e.getValue()));
        System.out.printf(Locale.ROOT, "  %-40s %7.3f ms%n", "total", total);
    }

    private static String componentOf(String threadName) {
        for (Map.Entry<String, String> group : GROUPS) {
            if (threadName.startsWith(group.getKey())) {
                return group.getValue();
            }
        }
        return "other threads";
    }

    private record Stat(String name, long ticks) {}

    /** utime + stime of one /proc stat file; the name sits in parentheses and may itself contain spaces. */
    private static Optional<Stat> read(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            String[] rest = stat.substring(close + 2).split(" ");
            // after the name: state(3) ppid(4) ... utime(14) stime(15), so indexes 11 and 12 of rest
            return Optional.of(new Stat(stat.substring(open + 1, close), Long.parseLong(rest[11]) + Long.parseLong(rest[12])));
        } catch (IOException | RuntimeException gone) {
            return Optional.empty(); // the thread or process ended meanwhile
        }
    }
}
