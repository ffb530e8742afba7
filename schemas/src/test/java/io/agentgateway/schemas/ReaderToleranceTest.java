package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.MemberRemoved;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a v1 reader does with records it does not fully understand. Unknown fields are ignored (see
 * {@link GoldenFilesTest}); an unknown variant or enum constant cannot be read, and the serde reports
 * it as Kafka's {@link SerializationException} (skipped and counted by the consumers' error handlers)
 * rather than a stuck partition. Hence the README's rule: readers are deployed before a writer emits
 * a new variant or enum constant.
 */
class ReaderToleranceTest {

    @Test
    void anUnknownEventTypeIsASerializationExceptionNamingTheTopic() {
        ObjectNode json = GatewayJson.MAPPER.valueToTree(WireSamples.eventEnvelope(new MemberRemoved("u")));
        ((ObjectNode) json.get("event")).put("type", "member_renamed");

        assertThatThrownBy(() -> Topics.EVENTS.valueSerde().deserializer().deserialize(Topics.EVENTS.name(), bytes(json)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(Topics.EVENTS.name())
                .hasMessageContaining("EventEnvelope");
    }

    @Test
    void anUnknownEnumConstantIsASerializationException() {
        ObjectNode json = GatewayJson.MAPPER.valueToTree(WireSamples.commandEnvelope(new CreateWorkspace("Acme")));
        ((ObjectNode) json.get("actor")).put("kind", "robot");

        assertThatThrownBy(() -> Topics.COMMANDS.valueSerde().deserializer().deserialize(Topics.COMMANDS.name(), bytes(json)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(Topics.COMMANDS.name());
    }

    @Test
    void anAbsentOptionalFieldReadsAsNull() {
        CommandEnvelope nobodyWaits = new CommandEnvelope(1, WireSamples.COMMAND_ID, WireSamples.WORKSPACE_ID,
                WireSamples.CORRELATION_ID, WireSamples.ACCEPTED_AT, null, Actor.system("scheduler"), new CreateWorkspace("Acme"));
        String json = GatewayJson.MAPPER.writeValueAsString(nobodyWaits);

        assertThat(json).doesNotContain("replyPartition").doesNotContain("null");
        assertThat(GatewayJson.MAPPER.readValue(json, CommandEnvelope.class)).isEqualTo(nobodyWaits);
    }

    @Test
    void nullAndEmptyRecordsAreNullBothWays() {
        assertThat(Topics.EVENTS.valueSerde().serializer().serialize(Topics.EVENTS.name(), null)).isNull();
        assertThat(Topics.EVENTS.valueSerde().deserializer().deserialize(Topics.EVENTS.name(), null)).isNull();
    }

    @Test
    void garbageIsASerializationException() {
        assertThatThrownBy(() -> Topics.EVENTS.valueSerde().deserializer()
                .deserialize(Topics.EVENTS.name(), "{not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void theTypeIdIsWrittenFirstSoStreamingReadersSeeItBeforeTheFields() {
        String json = GatewayJson.MAPPER.writeValueAsString(WireSamples.eventEnvelope(new MemberRemoved("u")));
        assertThat(json).contains("\"event\":{\"type\":\"member_removed\"");
        assertThat(GatewayJson.MAPPER.readValue(json, EventEnvelope.class).event())
                .isEqualTo(new MemberRemoved("u"));
    }

    private static byte[] bytes(ObjectNode json) {
        return GatewayJson.MAPPER.writeValueAsBytes(json);
    }
}
