package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventTypeHeader;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EventTypeHeaderTest {

    static Stream<DomainEvent> events() {
        return WireSamples.events().values().stream();
    }

    @ParameterizedTest
    @MethodSource("events")
    void the_header_names_the_type_the_value_carries(DomainEvent event) {
        String typeInValue = GatewayJson.MAPPER.valueToTree(event).get("type").asString();

        assertThat(EventTypeHeader.typeOf(EventTypeHeader.of(event))).contains(typeInValue);
        assertThat(EventTypeHeader.wireName(event.getClass())).isEqualTo(typeInValue);
    }

    @Test
    void a_record_from_before_the_header_has_no_type() {
        assertThat(EventTypeHeader.typeOf(new RecordHeaders())).isEmpty();
        assertThat(EventTypeHeader.typeOf(null)).isEmpty();
        assertThat(EventTypeHeader.typeOf(new RecordHeaders().add("other", "x".getBytes(StandardCharsets.UTF_8)))).isEmpty();
    }

    @Test
    void each_record_gets_headers_of_its_own() {
        DomainEvent event = events().findFirst().orElseThrow();
        var first = EventTypeHeader.of(event);
        first.add("extra", new byte[0]);

        assertThat(EventTypeHeader.of(event).toArray()).hasSize(1);
    }

    @Test
    void only_listed_subtypes_have_a_name() {
        assertThatThrownBy(() -> EventTypeHeader.wireName(DomainEvent.class)).isInstanceOf(IllegalArgumentException.class);
    }
}
