package io.agentgateway.benchmark.measure;

import io.agentgateway.benchmark.gateway.GatewayProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peak memory of the whole embedded default: this JVM plus PostgreSQL's processes, sampled every
 * second from Linux's /proc (reading smaps_rollup walks the page tables of a large heap: more often
 * would cost the measured gateway CPU). Each process counts its proportional set size (PSS), so
 * the memory PostgreSQL's processes share (shared buffers) is counted once, not once per backend.
 */
public final class ResidentMemorySampler implements AutoCloseable {
    private final AtomicLong peakKb = new AtomicLong();
    private final AtomicLong peakJvmKb = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rss-sampler");
        t.setDaemon(true);
        return t;
    });

    private final GatewayProcesses processes;
    private final long jvmPid;

    /** The embedded default in this JVM. */
    ResidentMemorySampler(GatewayProcesses processes) {
        this(ProcessHandle.current().pid(), processes);
    }

    /** The embedded default in the JVM process {@code jvmPid}. */
    public ResidentMemorySampler(long jvmPid, GatewayProcesses processes) {
        this.processes = processes;
        this.jvmPid = jvmPid;
        sampler.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    private void sample() {
        long jvm = pssKb(jvmPid);
        long total = jvm + processes.postgres().mapToLong(process -> pssKb(process.pid())).sum();
        peakJvmKb.accumulateAndGet(jvm, Math::max);
        peakKb.accumulateAndGet(total, Math::max);
    }

    private static long pssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
                if (line.startsWith("Pss:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux, or the process ended meanwhile: it counts 0
        }
        return 0;
    }

    /** The JVM and PostgreSQL together. */
    public double peakMiB() {
        return peakKb.get() / 1024.0;
    }

    public double peakJvmMiB() {
        return peakJvmKb.get() / 1024.0;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
