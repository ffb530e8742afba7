package io.agentgateway.benchmark.measure;

import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** Latencies in microseconds, plus counts of failed calls; safe to record from many threads. */
public final class LatencyRecorder {
    private final Histogram histogram = new ConcurrentHistogram(60_000_000L, 3);
    private final AtomicLong failures = new AtomicLong();

    public void record(long nanos) {
        histogram.recordValue(Math.max(1, nanos / 1_000));
    }

    public void failure() {
        failures.incrementAndGet();
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public long failures() {
        return failures.get();
    }

    public double percentileMillis(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
