package io.agentgateway.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OpenLoopPlanTest {

    @Test
    void lowRatesGetLongPhasesUpToTheCapAndHighRatesTheMinimum() {
        OpenLoopPlan plan = OpenLoopPlan.of("1,10,100,500,1000,2000", 300, 15, 90, "");

        assertThat(plan.phases()).extracting(OpenLoopPlan.Phase::rate).containsExactly(1, 10, 100, 500, 1000, 2000);
        assertThat(plan.phases()).extracting(p -> p.length().toSeconds()).containsExactly(90L, 30L, 15L, 15L, 15L, 15L);
        assertThat(plan.phases()).extracting(OpenLoopPlan.Phase::calls).containsExactly(90L, 300L, 1500L, 7500L, 15000L, 30000L);
        assertThat(plan.perSeries()).isEqualTo(Duration.ofSeconds(180));
    }

    @Test
    void aRateCanBeGivenItsOwnLength() {
        OpenLoopPlan plan = OpenLoopPlan.of(" 1, 10 ,3000", 300, 15, 90, "1:120, 3000:5");

        assertThat(plan.phases()).containsExactly(new OpenLoopPlan.Phase(1, Duration.ofSeconds(120)),
                new OpenLoopPlan.Phase(10, Duration.ofSeconds(30)), new OpenLoopPlan.Phase(3000, Duration.ofSeconds(5)));
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> OpenLoopPlan.of("1,ten", 300, 15, 90, "")).hasMessageContaining("bench.rates").hasMessageContaining("ten");
        assertThatThrownBy(() -> OpenLoopPlan.of("0", 300, 15, 90, "")).hasMessageContaining("bench.rates");
        assertThatThrownBy(() -> OpenLoopPlan.of("", 300, 15, 90, "")).hasMessageContaining("bench.rates");
        assertThatThrownBy(() -> OpenLoopPlan.of("1", 300, 15, 90, "1=120")).hasMessageContaining("bench.phaseSeconds");
        assertThatThrownBy(() -> OpenLoopPlan.of("1", 300, 30, 20, "")).hasMessageContaining("bench.maxSeconds");
    }
}
