package io.agentgateway.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.benchmark.measure.LatencyRecorder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class LoadRunnerTest {

    /**
     * A stall that holds the sender back (as a client whose connections are all busy does) must show in
     * the percentiles: the calls due during the stall count their latency from when they were due, not
     * from when they finally went out (coordinated omission).
     */
    @Test
    void openLoopCountsLatencyFromTheIntendedSendTime() throws Exception {
        AtomicInteger started = new AtomicInteger();
        LoadRunner.Call stallsOnce = () -> {
            if (started.incrementAndGet() == 20) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300)); // the stall under test
            }
            return CompletableFuture.completedFuture(true); // otherwise answered at once
        };

        LatencyRecorder latency = LoadRunner.openLoop(stallsOnce, 100, Duration.ofSeconds(2));

        assertThat(latency.count()).isEqualTo(200);
        assertThat(latency.failures()).isZero();
        // about 30 calls were due during the 300 ms: 290, 280, ... 0 ms late
        assertThat(latency.percentileMillis(100)).isGreaterThanOrEqualTo(280);
        assertThat(latency.percentileMillis(90)).isGreaterThanOrEqualTo(50);
        assertThat(latency.percentileMillis(50)).isLessThan(50);
    }

    @Test
    void anOpenLoopCountsFailedAndRefusedCallsApart() throws Exception {
        AtomicInteger started = new AtomicInteger();
        LoadRunner.Call everyThirdFails = () -> switch (started.incrementAndGet() % 3) {
            case 0 -> CompletableFuture.failedFuture(new IllegalStateException("connection refused"));
            case 1 -> CompletableFuture.completedFuture(false); // an answer other than 200
            default -> CompletableFuture.completedFuture(true);
        };

        LatencyRecorder latency = LoadRunner.openLoop(everyThirdFails, 300, Duration.ofSeconds(1));

        assertThat(latency.count()).isEqualTo(100);
        assertThat(latency.failures()).isEqualTo(200);
    }
}
