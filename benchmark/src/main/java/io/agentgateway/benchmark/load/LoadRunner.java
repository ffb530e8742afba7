package io.agentgateway.benchmark.load;

import io.agentgateway.benchmark.measure.LatencyRecorder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** Drives one kind of call either at a fixed rate (open loop) or with N callers (closed loop). */
public final class LoadRunner {

    /** One asynchronous call; completes true when it succeeded. */
    public interface Call extends Supplier<CompletableFuture<Boolean>> {}

    private LoadRunner() {}

    /**
     * Open loop: calls start on a fixed schedule whatever the latency, and latency is measured from
     * the intended start, so a stall shows up in the percentiles (no coordinated omission).
     */
    public static LatencyRecorder openLoop(Call call, int perSecond, Duration duration) throws InterruptedException {
        LatencyRecorder recorder = new LatencyRecorder();
        long intervalNanos = 1_000_000_000L / perSecond;
        long total = duration.toNanos() / intervalNanos;
        long start = System.nanoTime();
        AtomicLong outstanding = new AtomicLong();
        for (long i = 0; i < total; i++) {
            long intended = start + i * intervalNanos;
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            outstanding.incrementAndGet();
            call.get().whenComplete((ok, error) -> {
                if (error == null && Boolean.TRUE.equals(ok)) {
                    recorder.record(System.nanoTime() - intended);
                } else {
                    recorder.failure();
                }
                outstanding.decrementAndGet();
            });
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return recorder;
    }

    /**
     * Waits until the system has worked off any backlog an overloaded phase left behind: five calls
     * in a row each answered within 100 ms (at most two minutes).
     */
    public static void awaitDrained(Call call) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int fastInARow = 0;
        while (fastInARow < 5 && System.nanoTime() < deadline) {
            long start = System.nanoTime();
            boolean ok = Boolean.TRUE.equals(call.get().handle((r, e) -> e == null && Boolean.TRUE.equals(r)).join());
            fastInARow = ok && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(100) ? fastInARow + 1 : 0;
        }
    }

    /** Closed loop: {@code callers} each start their next call when the previous one answered. */
    public static double closedLoopPerSecond(Call call, int callers, Duration duration) throws InterruptedException {
        return closedLoop(call, callers, duration).perSecond();
    }

    /** What a closed loop completed, and in how long. */
    public record Completed(long calls, double seconds) {
        public double perSecond() {
            return calls / seconds;
        }
    }

    /** Closed loop: {@code callers} each start their next call when the previous one answered. */
    public static Completed closedLoop(Call call, int callers, Duration duration) throws InterruptedException {
        AtomicLong completed = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        CompletableFuture<?>[] loops = new CompletableFuture<?>[callers];
        long start = System.nanoTime();
        for (int i = 0; i < callers; i++) {
            loops[i] = loop(call, end, completed);
        }
        CompletableFuture.allOf(loops).orTimeout(duration.toSeconds() + 60, TimeUnit.SECONDS).join();
        return new Completed(completed.get(), (System.nanoTime() - start) / 1e9);
    }

    private static CompletableFuture<Void> loop(Call call, long end, AtomicLong completed) {
        if (System.nanoTime() >= end) {
            return CompletableFuture.completedFuture(null);
        }
        return call.get().handle((ok, error) -> {
            if (error == null && Boolean.TRUE.equals(ok)) {
                completed.incrementAndGet();
            }
            return null;
        }).thenCompose(ignored -> loop(call, end, completed));
    }
}
