package io.agentgateway.benchmark;

import java.io.OutputStream;

/**
 * Where a benchmarked export goes: counts bytes and lines and throws them away, sampling the live
 * heap every {@code sampleEveryLines} lines, that is while the export is in the middle of streaming.
 */
final class ExportSink extends OutputStream {
    private final LiveHeap heap;
    private final long sampleEveryLines;
    private long bytes;
    private long lines;

    ExportSink(LiveHeap heap, long sampleEveryLines) {
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

    long bytes() {
        return bytes;
    }

    long lines() {
        return lines;
    }
}
