package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;

class UtcInstantDeserializerTest {

    @Test
    void reads_what_the_mapper_writes_exactly_as_java_time_does() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            // from 0001 to 9999, with every precision the writer produces (seconds, millis, micros, nanos)
            Instant instant = Instant.ofEpochSecond(random.nextLong(-62_135_596_800L, 253_402_300_799L),
                    switch (i % 4) {
                        case 0 -> 0;
                        case 1 -> random.nextInt(1_000) * 1_000_000;
                        case 2 -> random.nextInt(1_000_000) * 1_000;
                        default -> random.nextInt(1_000_000_000);
                    });
            String written = GatewayJson.MAPPER.writeValueAsString(instant);

            assertThat(UtcInstantDeserializer.parseUtc(instant.toString())).isEqualTo(instant);
            assertThat(GatewayJson.MAPPER.readValue(written, Instant.class)).isEqualTo(instant);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-24T01:00:00Z", "2026-11-24T01:00:00.5Z", "2026-11-24T01:00:00.123456789Z",
            "2024-02-29T23:59:59.999Z", "1970-01-01T00:00:00Z"})
    void the_fast_form_agrees_with_instant_parse(String text) {
        assertThat(UtcInstantDeserializer.parseUtc(text)).isEqualTo(Instant.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-24T03:00:00+02:00", "2026-11-24T01:00:00.Z", "2026-11-24T01:00:00.1234567890Z",
            "2026-02-30T01:00:00Z", "2026-11-24T24:00:00Z", "2026-11-24T23:59:60Z", "+12026-11-24T01:00:00Z",
            "2026-11-24 01:00:00Z", "2026-11-24T01:00:00", "2026-1x-24T01:00:00Z", ""})
    void anything_else_is_left_to_jackson(String text) {
        assertThat(UtcInstantDeserializer.parseUtc(text)).isNull();
    }

    @Test
    void other_forms_jackson_accepted_before_are_still_accepted() throws Exception {
        assertThat(GatewayJson.MAPPER.readValue("\"2026-11-24T03:00:00+02:00\"", Instant.class))
                .isEqualTo(Instant.parse("2026-11-24T01:00:00Z"));
        assertThat(GatewayJson.MAPPER.readValue("1764000000", Instant.class)).isEqualTo(Instant.ofEpochSecond(1_764_000_000L));
    }

    @Test
    void text_that_is_no_instant_is_still_refused() {
        assertThatThrownBy(() -> GatewayJson.MAPPER.readValue("\"2026-02-30T01:00:00Z\"", Instant.class))
                .isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> GatewayJson.MAPPER.readValue("\"yesterday\"", Instant.class))
                .isInstanceOf(JacksonException.class);
    }
}
