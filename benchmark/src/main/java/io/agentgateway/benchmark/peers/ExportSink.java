package io.agentgateway.benchmark.peers;

import io.agentgateway.benchmark.measure.LiveHeap;
import java.io.OutputStream;

/**
 * Where a benchmarked export goes: counts bytes and lines and throws them away, sampling the live
 * heap every {@code sampleEveryLines} lines, that is while the export is in the middle of streaming.
 */
public final class ExportSink extends OutputStream {
    private final LiveHeap heap;
    private final long sampleEveryLines;
    private long bytes;
    private long lines;

    public ExportSink(LiveHeap heap, long sampleEveryLines) {
        this.heap = heap;
        this.sampleEveryLines = sampleEveryLines;
    }

    @Override
    public void write(int b) {
        bytes++;
        if (b == '\n') {
            line();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line();
            }
        }
    }

    private void line() {
        lines++;
        if (lines % sampleEveryLines == 0) {
            heap.sample();
        }
    }

    public long bytes() {
        return bytes;
    }

    public long lines() {
        return lines;
    }
}
