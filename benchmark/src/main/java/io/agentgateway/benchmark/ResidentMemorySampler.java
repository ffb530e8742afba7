package io.agentgateway.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The peak resident set size of this process (Linux /proc), sampled every 100 ms. */
final class ResidentMemorySampler implements AutoCloseable {
    private final AtomicLong peakKb = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rss-sampler");
        t.setDaemon(true);
        return t;
    });

    ResidentMemorySampler() {
        sampler.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    peakKb.accumulateAndGet(kb, Math::max);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: the figure is reported as 0
        }
    }

    double peakMiB() {
        return peakKb.get() / 1024.0;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
