package io.agentgateway.benchmark.load;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Warms up until the JIT has settled, not for a fixed time: the broker, Streams, Netty, Jackson and
 * JDBC all run in this one JVM, and on two cores C2 needs minutes for that much code. A phase measured
 * while the compilers still take a large share of a core measures the warm-up, not the gateway.
 */
public final class JitWarmup {
    private static final Duration SLICE = Duration.ofSeconds(10);

    private JitWarmup() {}

    /**
     * Runs {@code callers} closed-loop callers in slices of 10 s until one slice spent less than
     * {@code quietShare} of one core compiling, for at least {@code min} and at most {@code max}.
     */
    public static void untilQuiet(LoadRunner.Call call, int callers, double quietShare, Duration min, Duration max) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        untilQuiet("warm-up", call, callers, quietShare, min, max, jit::getTotalCompilationTime);
    }

    /**
     * As above, for any compilers (e.g. those of the gateway's own process): {@code compilingMillis} says
     * how many milliseconds they have spent so far; {@code label} starts each progress line.
     */
    public static void untilQuiet(String label, LoadRunner.Call call, int callers, double quietShare, Duration min, Duration max,
            LongSupplier compilingMillis) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            long compiledBefore = compilingMillis.getAsLong();
            double rate = LoadRunner.closedLoopPerSecond(call, callers, SLICE);
            double share = (compilingMillis.getAsLong() - compiledBefore) / (double) SLICE.toMillis();
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf(Locale.ROOT, "%s %3d s: %,6.0f calls/s, JIT busy %3.0f%% of a core%n",
                    label, elapsed.toSeconds(), rate, share * 100);
            if ((share < quietShare && elapsed.compareTo(min) >= 0) || elapsed.compareTo(max) >= 0) {
                return;
            }
        }
    }
}
