package io.agentgateway.embeddedinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void a_port_already_chosen_for_another_listener_is_not_handed_out_again() {
        // the operating system offers the broker's client port (chosen, not yet bound) first
        PrimitiveIterator.OfInt offered = IntStream.of(45801, 45801, 45802).iterator();
        assertThat(FreePorts.pickOtherThan(offered::nextInt, 45801)).isEqualTo(45802);
    }

    @Test
    void it_gives_up_rather_than_loop_when_only_taken_ports_are_offered() {
        assertThatThrownBy(() -> FreePorts.pickOtherThan(() -> 45801, 45801)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_real_pick_avoids_the_ports_it_is_told() {
        int taken = FreePorts.pick();
        assertThat(FreePorts.pickOtherThan(taken)).isNotEqualTo(taken).isPositive();
    }
}
