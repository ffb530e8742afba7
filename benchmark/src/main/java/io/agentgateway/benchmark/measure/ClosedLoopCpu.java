package io.agentgateway.benchmark.measure;

import io.agentgateway.benchmark.gateway.GatewayProcesses;
import io.agentgateway.benchmark.load.LoadRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A closed-loop phase of an in-process benchmark with the CPU it cost per call: this JVM (gateway, broker,
 * the benchmark's client and upstream) plus the embedded PostgreSQL, and the same without the benchmark's own
 * client and upstream event loops ({@code bench-*} threads), which is what the gateway spends. CPU per call is
 * the figure to compare across runs and versions: calls/s on the shared 2-core machine moves with the
 * neighbours, CPU per call much less.
 *
 * @param gatewayMillisPerCall CPU per call of everything but the benchmark's peers (GC and JIT included)
 */
public record ClosedLoopCpu(double perSecond, long calls, double totalMillisPerCall, double gatewayMillisPerCall) {

    /** The embedded default started with {@code LauncherSettings.ephemeral(dataDir)}: its PostgreSQL. */
    public static GatewayProcesses embeddedIn(Path dataDir) {
        return new GatewayProcesses(dataDir.resolve("postgres"));
    }

    public static ClosedLoopCpu measure(LoadRunner.Call call, int callers, Duration phase, GatewayProcesses processes)
            throws InterruptedException {
        CpuBreakdown.Snapshot before = CpuBreakdown.take(processes);
        LoadRunner.Completed completed = LoadRunner.closedLoop(call, callers, phase);
        CpuBreakdown.Snapshot after = CpuBreakdown.take(processes);
        long calls = Math.max(1, completed.calls());
        double total = after.millisSince(before);
        double peers = after.millisSince(before, CpuBreakdown.BENCHMARK_PEERS);
        return new ClosedLoopCpu(completed.perSecond(), completed.calls(), total / calls, (total - peers) / calls);
    }

    /** "1,427 calls/s   CPU/call 1.234 ms (gateway 0.987 ms)" */
    public String describe(String unit) {
        return String.format(Locale.ROOT, "%,8.0f %s/s   CPU per call %.3f ms, of which the gateway %.3f ms (%,d calls)",
                perSecond, unit, totalMillisPerCall, gatewayMillisPerCall, calls);
    }
}
