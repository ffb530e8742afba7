package io.agentgateway.classification;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.GatewayJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadExcerptTest {

    @Test
    void a_payload_of_exactly_the_limit_is_not_truncated() {
        var payload = GatewayJson.MAPPER.readTree("[\"abc\"]"); // 7 bytes
        assertThat(PayloadExcerpt.of(payload, 7)).isEqualTo(new PayloadExcerpt("[\"abc\"]", false, 7));
        assertThat(PayloadExcerpt.of(payload, 6)).isEqualTo(new PayloadExcerpt("[\"abc\"", true, 7));
    }

    @Test
    void a_four_byte_character_is_dropped_whole() {
        var payload = GatewayJson.MAPPER.getNodeFactory().stringNode("😀😀"); // "😀😀" = 1 + 4 + 4 + 1 bytes
        for (int limit = 1; limit <= 9; limit++) {
            PayloadExcerpt excerpt = PayloadExcerpt.of(payload, limit);
            assertThat(excerpt.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(limit);
            assertThat(excerpt.text()).isIn("\"", "\"😀", "\"😀😀");
            assertThat(excerpt.fullBytes()).isEqualTo(10);
            assertThat(excerpt.truncated()).isTrue();
        }
    }

    @Test
    void no_payload_no_excerpt() {
        assertThat(PayloadExcerpt.of(null, 10)).isEqualTo(new PayloadExcerpt(null, false, 0));
    }
}
