package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.kafka.EventTypeHeader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
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

    @ParameterizedTest
    @MethodSource("events")
    void a_record_is_found_by_its_header_and_without_one_by_its_value(DomainEvent event) {
        String type = EventTypeHeader.wireName(event.getClass());
        byte[] value = GatewayJson.MAPPER.writeValueAsBytes(event);

        assertThat(EventTypeHeader.mayBeOneOf(EventTypeHeader.of(event), value, Set.of(type))).isTrue();
        assertThat(EventTypeHeader.mayBeOneOf(new RecordHeaders(), value, Set.of(type))).isTrue();
        assertThat(EventTypeHeader.mayBeOneOf(EventTypeHeader.of(event), value, Set.of("no_such_type"))).isFalse();
        assertThat(EventTypeHeader.mayBeOneOf(new RecordHeaders(), value, Set.of("no_such_type"))).isFalse();
    }

    @Test
    void the_header_decides_when_there_is_one() {
        byte[] mentionsIt = "{\"type\":\"approval_reviewed\"}".getBytes(StandardCharsets.UTF_8);
        var otherType = new RecordHeaders().add(EventTypeHeader.NAME, "action_evaluated".getBytes(StandardCharsets.UTF_8));

        assertThat(EventTypeHeader.mayBeOneOf(otherType, mentionsIt, Set.of("approval_reviewed"))).isFalse();
        assertThat(EventTypeHeader.mayBeOneOf(new RecordHeaders(), null, Set.of("approval_reviewed"))).isFalse();
    }

    @Test
    void only_listed_subtypes_have_a_name() {
        assertThatThrownBy(() -> EventTypeHeader.wireName(DomainEvent.class)).isInstanceOf(IllegalArgumentException.class);
    }
}
