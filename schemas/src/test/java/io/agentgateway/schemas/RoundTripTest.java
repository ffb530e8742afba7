package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Topics.Topic;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sample comes back equal through each topic's value serde and through the contract's mapper. */
class RoundTripTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void roundTripsThroughTheValueSerdeOfEveryTopicThatCarriesIt(WireCase wireCase) {
        for (Topic<String, ?> topic : wireCase.topics()) {
            Serde<Object> serde = valueSerde(topic);
            byte[] bytes = serde.serializer().serialize(topic.name(), wireCase.sample());
            Object back = serde.deserializer().deserialize(topic.name(), bytes);
            assertThat(back).as(topic.name()).isEqualTo(wireCase.sample());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void roundTripsThroughTheMapper(WireCase wireCase) {
        String json = GatewayJson.MAPPER.writeValueAsString(wireCase.sample());
        assertThat(GatewayJson.MAPPER.readValue(json, wireCase.type())).isEqualTo(wireCase.sample());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void serdeAndMapperWriteTheSameBytes(WireCase wireCase) {
        // one JSON form per value, whichever path a service writes it through
        byte[] viaMapper = GatewayJson.MAPPER.writeValueAsBytes(wireCase.sample());
        for (Topic<String, ?> topic : wireCase.topics()) {
            assertThat(valueSerde(topic).serializer().serialize(topic.name(), wireCase.sample())).isEqualTo(viaMapper);
        }
    }

    @SuppressWarnings("unchecked")
    static Serde<Object> valueSerde(Topic<String, ?> topic) {
        return (Serde<Object>) topic.valueSerde();
    }
}
