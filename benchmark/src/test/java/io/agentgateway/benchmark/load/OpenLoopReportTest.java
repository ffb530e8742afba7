package io.agentgateway.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.benchmark.measure.CpuBreakdown;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenLoopReportTest {
    private static final CpuBreakdown.Snapshot BEFORE = new CpuBreakdown.Snapshot(Map.of("broker", 100L), 1_000, 50);
    private static final CpuBreakdown.Snapshot AFTER = new CpuBreakdown.Snapshot(Map.of("broker", 160L), 1_100, 70);

    @Test
    void aRateIsHeldOnlyWithEveryCallAnsweredWithinTheTarget() {
        assertThat(phase(100, 0, 100, 20).held(25)).isTrue();
        assertThat(phase(100, 0, 100, 30).held(25)).as("p99 above the target").isFalse();
        assertThat(phase(99, 1, 100, 20).held(25)).as("a failed call").isFalse();
        assertThat(phase(90, 0, 100, 20).held(25)).as("calls never answered").isFalse();
    }

    @Test
    void cpuPerDecisionIsTheProcessAndPostgresWithAndWithoutTheIdleBaseline() {
        // 100 + 20 ticks of 10 ms over 10 s for 100 calls; idle 50 ms/s
        var span = new OpenLoopReport.CpuSpan(BEFORE, AFTER, 100, 10.0);
        var idle = new OpenLoopReport.Idle(50.0, Map.of(), 10.0);

        assertThat(span.perOperation()).isEqualTo(12.0);
        assertThat(span.perOperationAboveIdle(idle)).isEqualTo(7.0);
        assertThat(span.perOperation("broker")).isEqualTo(6.0);
        assertThat(span.endedThreadsPerOperation()).as("process 1,000 ms, live threads 600 ms").isEqualTo(4.0);
    }

    @Test
    void roundsAsATableInProseDoes() {
        assertThat(OpenLoopReport.round(353.4)).isEqualTo("353");
        assertThat(OpenLoopReport.round(15.66)).isEqualTo("15.7");
        assertThat(OpenLoopReport.round(6.333)).isEqualTo("6.33");
        assertThat(OpenLoopReport.round(0.5112)).isEqualTo("0.511");
    }

    private static OpenLoopReport.Measured phase(int answered, int failed, long planned, long p99Millis) {
        LatencyRecorder latency = new LatencyRecorder();
        for (int i = 0; i < answered; i++) {
            latency.record((i >= answered - 2 ? p99Millis : 2) * 1_000_000); // the slowest 2%
        }
        for (int i = 0; i < failed; i++) {
            latency.failure();
        }
        return new OpenLoopReport.Measured(latency, planned, new OpenLoopReport.CpuSpan(BEFORE, AFTER, answered + failed, 10), 0, 0, 0);
    }
}
