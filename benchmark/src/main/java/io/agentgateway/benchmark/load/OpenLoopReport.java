package io.agentgateway.benchmark.load;

import io.agentgateway.benchmark.measure.CpuBreakdown;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The open-loop series of one run: for every offered rate the gateway and its two floors, with the CPU
 * the gateway's process and PostgreSQL spent meanwhile. Prints the headline table (Markdown, as
 * docs/benchmarks.md shows it), the details, the highest rate each path held and the gateway's CPU per
 * decision by component.
 */
public final class OpenLoopReport {

    /** The three paths measured at every rate, in the order they run. */
    public enum Path {
        KAFKA_FLOOR("Kafka floor"), HTTP_FLOOR("HTTP floor"), GATEWAY("evaluate-action");

        final String label;

        Path(String label) {
            this.label = label;
        }
    }

    /**
     * The CPU the gateway's process and PostgreSQL spent over a phase of {@code operations} calls.
     *
     * @param seconds wall time between the two snapshots (the phase and its last answers)
     */
    public record CpuSpan(CpuBreakdown.Snapshot before, CpuBreakdown.Snapshot after, long operations, double seconds) {
        /** CPU milliseconds per call, idle included. */
        public double perOperation() {
            return operations == 0 ? Double.NaN : after.millisSince(before) / operations;
        }

        /** The same without what the gateway spends when idle over the same time. */
        double perOperationAboveIdle(Idle idle) {
            return operations == 0 ? Double.NaN : (after.millisSince(before) - idle.millisPerSecond() * seconds) / operations;
        }

        double perOperation(String component) {
            return after.millisSince(before, component) / Math.max(1, operations);
        }

        /** What threads that ended during the phase had spent (the process's total less its live threads'). */
        double endedThreadsPerOperation() {
            double live = after.ticksByComponent().keySet().stream().filter(c -> !c.equals(CpuBreakdown.POSTGRES))
                    .mapToDouble(c -> after.millisSince(before, c)).sum();
            double process = (after.processTicks() - before.processTicks()) * CpuBreakdown.MILLIS_PER_TICK;
            return Math.max(0, process - live) / Math.max(1, operations);
        }
    }

    /**
     * One measured open-loop phase.
     *
     * @param planned         calls the schedule started
     * @param clientCpuMillis CPU of the benchmark's own process (load generator, floors) meanwhile
     * @param fromMillis      wall clock at the start, for the audit delay of the phase
     */
    public record Measured(LatencyRecorder latency, long planned, CpuSpan cpu, double clientCpuMillis, long fromMillis, long toMillis) {

        long calls() {
            return latency.count() + latency.failures();
        }

        boolean held(double p99TargetMs) {
            return latency.failures() == 0 && latency.count() >= planned && latency.percentileMillis(99) <= p99TargetMs;
        }
    }

    /** What the gateway's process and PostgreSQL spend with no load, per second, in all and by component. */
    public record Idle(double millisPerSecond, Map<String, Double> byComponent, double seconds) {
        public static Idle between(CpuBreakdown.Snapshot before, CpuBreakdown.Snapshot after, double seconds) {
            Map<String, Double> components = new LinkedHashMap<>();
            after.ticksByComponent().keySet().forEach(c -> components.put(c, after.millisSince(before, c) / seconds));
            return new Idle(after.millisSince(before) / seconds, components, seconds);
        }
    }

    private final Map<Integer, Map<Path, Measured>> byRate = new LinkedHashMap<>();
    private final double p99TargetMs;
    private Idle idle;
    private Map<Integer, Double> auditP99 = Map.of();

    public OpenLoopReport(double p99TargetMs) {
        this.p99TargetMs = p99TargetMs;
    }

    public void idle(Idle baseline) {
        this.idle = baseline;
    }

    public Idle idleBaseline() {
        return idle;
    }

    public void add(int rate, Path path, Measured measured) {
        byRate.computeIfAbsent(rate, r -> new EnumMap<>(Path.class)).put(path, measured);
    }

    public void auditP99(Map<Integer, Double> millisByRate) {
        this.auditP99 = Map.copyOf(millisByRate);
    }

    public Map<Integer, Measured> of(Path path) {
        Map<Integer, Measured> series = new LinkedHashMap<>();
        byRate.forEach((rate, paths) -> Optional.ofNullable(paths.get(path)).ifPresent(m -> series.put(rate, m)));
        return series;
    }

    /** One line as soon as a rate is done, so a long run shows where it is. */
    public String progressLine(int rate) {
        Map<Path, Measured> paths = byRate.get(rate);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%6d/s", rate));
        for (Path path : Path.values()) {
            Measured m = paths.get(path);
            if (m != null) {
                line.append(String.format(Locale.ROOT, "   %s p50 %.2f p99 %.2f ms%s", path.label, m.latency().percentileMillis(50),
                        m.latency().percentileMillis(99), m.latency().failures() > 0 ? " (" + m.latency().failures() + " failed)" : ""));
            }
        }
        Measured gateway = paths.get(Path.GATEWAY);
        if (gateway != null) {
            line.append(String.format(Locale.ROOT, "   CPU %.3f ms/decision", gateway.cpu().perOperation()));
        }
        return line.toString();
    }

    /** The Markdown table of the headline figures (docs/benchmarks.md). */
    public void printHeadline() {
        System.out.printf(Locale.ROOT, "%n| offered | gateway p50 / p99 ms | Kafka floor p50 / p99 ms | HTTP floor p50 / p99 ms "
                + "| gateway p50 / Kafka floor p50 | gateway CPU per decision (above idle) |%n|---|---|---|---|---|---|%n");
        byRate.forEach((rate, paths) -> System.out.printf(Locale.ROOT, "| %,d/s | %s | %s | %s | %s | %s |%n", rate,
                p50p99(paths.get(Path.GATEWAY)), p50p99(paths.get(Path.KAFKA_FLOOR)), p50p99(paths.get(Path.HTTP_FLOOR)),
                ratio(paths.get(Path.GATEWAY), paths.get(Path.KAFKA_FLOOR)), cpu(paths.get(Path.GATEWAY))));
    }

    /** Every phase with its counts, max, ratio, CPU and (for the gateway) the audit row's delay. */
    public void printDetails() {
        System.out.printf(Locale.ROOT, "%n%8s  %-16s %7s %6s %8s %8s %8s %8s %10s %10s %9s %9s%n", "offered", "path", "calls", "failed",
                "p50 ms", "p99 ms", "max ms", "/ Kafka", "gw CPU/op", "above idle", "client/op", "audit p99");
        byRate.forEach((rate, paths) -> paths.forEach((path, m) -> {
            // the gateway's process does nothing for the HTTP floor: its CPU then is idle time spread over calls
            boolean gatewayWorks = path != Path.HTTP_FLOOR;
            System.out.printf(Locale.ROOT, "%6d/s  %-16s %7d %6d %8.2f %8.2f %8.2f %8s %10s %10s %9.3f %9s%s%n", rate, path.label,
                    m.latency().count(), m.latency().failures(), m.latency().percentileMillis(50), m.latency().percentileMillis(99),
                    m.latency().percentileMillis(100), ratio(m, paths.get(Path.KAFKA_FLOOR)),
                    gatewayWorks ? String.format(Locale.ROOT, "%.3f", m.cpu().perOperation()) : "–",
                    gatewayWorks && idle != null ? String.format(Locale.ROOT, "%.3f", m.cpu().perOperationAboveIdle(idle)) : "–",
                    m.clientCpuMillis() / Math.max(1, m.calls()),
                    path == Path.GATEWAY && auditP99.containsKey(rate) ? String.format(Locale.ROOT, "%.0f ms", auditP99.get(rate)) : "",
                    m.calls() < m.planned() ? "  (" + (m.planned() - m.calls()) + " unanswered)" : "");
        }));
        System.out.println("  gw CPU/op: the gateway's process and PostgreSQL per call, ms (for the Kafka floor: its broker);"
                + " client/op: the benchmark's own process (load generator, floors)");
    }

    /** The highest offered rate at which each path answered every call with p99 within the target. */
    public void printHeld() {
        System.out.printf(Locale.ROOT, "%nhighest offered rate held with p99 <= %.0f ms and no failed call:%n", p99TargetMs);
        for (Path path : List.of(Path.GATEWAY, Path.KAFKA_FLOOR, Path.HTTP_FLOOR)) {
            Optional<Integer> held = of(path).entrySet().stream().filter(e -> e.getValue().held(p99TargetMs))
                    .map(Map.Entry::getKey).max(Integer::compare);
            List<String> missed = new ArrayList<>();
            of(path).forEach((rate, m) -> {
                if (!m.held(p99TargetMs)) {
                    missed.add(rate + "/s");
                }
            });
            System.out.printf(Locale.ROOT, "  %-16s %s%s%n", path.label, held.map(r -> String.format(Locale.ROOT, "%,d/s", r)).orElse("none"),
                    missed.isEmpty() ? "" : "   (not held: " + String.join(", ", missed) + ")");
        }
    }

    /** Gateway CPU per decision by component at every rate (idle threads included), and the idle baseline per second. */
    public void printCpuByComponent(Map<String, CpuSpan> extraColumns) {
        Map<String, CpuSpan> columns = new LinkedHashMap<>();
        of(Path.GATEWAY).forEach((rate, m) -> columns.put(rate + "/s", m.cpu()));
        columns.putAll(extraColumns);
        Set<String> components = new LinkedHashSet<>();
        if (idle != null) {
            components.addAll(idle.byComponent().keySet());
        }
        columns.values().forEach(span -> components.addAll(span.after().ticksByComponent().keySet()));
        System.out.printf(Locale.ROOT, "%ngateway CPU per decision by component, ms (its process and PostgreSQL; idle threads included)%n");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-40s %9s", "component", "idle ms/s"));
        columns.keySet().forEach(c -> header.append(String.format(Locale.ROOT, " %9s", c)));
        System.out.println(header);
        // biggest first, as the last column (the most loaded) has them
        CpuSpan last = columns.values().stream().reduce((a, b) -> b).orElse(null);
        List<String> sorted = new ArrayList<>(components);
        sorted.sort(Comparator.comparingDouble((String c) -> last == null ? 0 : last.perOperation(c)).reversed());
        for (String component : sorted) {
            boolean spentNothing = (idle == null || idle.byComponent().getOrDefault(component, 0.0) == 0)
                    && columns.values().stream().allMatch(span -> span.perOperation(component) == 0);
            if (spentNothing) {
                continue; // e.g. the load generator, which runs in the benchmark's process
            }
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-40s %9.1f", component,
                    idle == null ? Double.NaN : idle.byComponent().getOrDefault(component, 0.0)));
            columns.values().forEach(span -> row.append(String.format(Locale.ROOT, " %9.3f", span.perOperation(component))));
            System.out.println(row);
        }
        StringBuilder ended = new StringBuilder(String.format(Locale.ROOT, "  %-40s %9s", "threads that ended meanwhile", ""));
        columns.values().forEach(span -> ended.append(String.format(Locale.ROOT, " %9.3f", span.endedThreadsPerOperation())));
        System.out.println(ended);
        StringBuilder total = new StringBuilder(String.format(Locale.ROOT, "  %-40s %9.1f", "total",
                idle == null ? Double.NaN : idle.millisPerSecond()));
        columns.values().forEach(span -> total.append(String.format(Locale.ROOT, " %9.3f", span.perOperation())));
        System.out.println(total);
    }

    private static String p50p99(Measured m) {
        if (m == null) {
            return "–";
        }
        String failed = m.latency().failures() > 0 ? String.format(Locale.ROOT, " (%d failed)", m.latency().failures()) : "";
        return String.format(Locale.ROOT, "%s / %s%s", round(m.latency().percentileMillis(50)), round(m.latency().percentileMillis(99)), failed);
    }

    private static String ratio(Measured gateway, Measured floor) {
        if (gateway == null || floor == null || floor.latency().count() == 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2fx", gateway.latency().percentileMillis(50) / floor.latency().percentileMillis(50));
    }

    private String cpu(Measured m) {
        if (m == null) {
            return "–";
        }
        return idle == null ? round(m.cpu().perOperation()) + " ms"
                : round(m.cpu().perOperation()) + " ms (" + round(m.cpu().perOperationAboveIdle(idle)) + ")";
    }

    /** Three significant figures, as a table in prose shows them. */
    static String round(double millis) {
        double magnitude = Math.abs(millis);
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", millis);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", millis);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", millis);
        }
        return String.format(Locale.ROOT, "%.3f", millis);
    }
}
