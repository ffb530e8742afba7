package io.agentgateway.benchmark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The live heap: heap used right after a full collection, so that garbage waiting for the next young
 * collection does not count and two runs of different lengths compare fairly.
 */
public final class LiveHeap {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private long peakBytes;
    private long samples;
    private long sampleNanos;

    /** Collects, then records the heap still in use. */
    @SuppressWarnings("java:S1215") // an explicit GC is the point of the measurement
    public void sample() {
        long start = System.nanoTime();
        System.gc();
        peakBytes = Math.max(peakBytes, MEMORY.getHeapMemoryUsage().getUsed());
        samples++;
        sampleNanos += System.nanoTime() - start;
    }

    public static long now() {
        LiveHeap once = new LiveHeap();
        once.sample();
        return once.peakBytes;
    }

    public long peakBytes() {
        return peakBytes;
    }

    long samples() {
        return samples;
    }

    /** Time spent collecting, to be taken out of a throughput figure. */
    public long sampleNanos() {
        return sampleNanos;
    }
}
