package io.agentgateway.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.console.approvals.Durations;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Times and durations as the pages write them. */
class FormatsTest {

    @Test
    void timesAreUtcToTheSecond() {
        assertThat(Formats.INSTANCE.time(Instant.parse("2026-11-28T12:18:05.686968Z"))).isEqualTo("2026-11-28 12:18:05 UTC");
        assertThat(Formats.INSTANCE.bare(Instant.parse("2026-11-28T12:18:05Z"))).isEqualTo("2026-11-28 12:18:05");
        assertThat(Formats.INSTANCE.time(null)).isEmpty();
    }

    @Test
    void timeLeftReadsAtAGlance() {
        assertThat(Durations.left(0)).isEqualTo("expired");
        assertThat(Durations.left(41)).isEqualTo("41 s");
        assertThat(Durations.left(9 * 60 + 3)).isEqualTo("9 min 3 s");
        assertThat(Durations.left(4 * 3600 + 12 * 60)).isEqualTo("4 h 12 min");
        assertThat(Durations.left(2 * 86_400 + 3600)).isEqualTo("2 d 1 h");
    }
}
