package io.agentgateway.decisionstream.topology;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads command envelopes, and when the command inside is unreadable (an unknown type from a newer
 * ingress, a malformed field) still returns the envelope's addressing with a null command, so that the
 * waiting caller gets an "invalid" reply instead of a timeout. Only bytes that are not a JSON object at
 * all fail, and those the deserialization handler logs and skips.
 */
final class TolerantCommandEnvelopeDeserializer implements Deserializer<CommandEnvelope> {
    private static final Logger log = LoggerFactory.getLogger(TolerantCommandEnvelopeDeserializer.class);

    private final Deserializer<CommandEnvelope> strict = Topics.COMMANDS.valueSerde().deserializer();

    @Override
    public CommandEnvelope deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return strict.deserialize(topic, data);
        } catch (SerializationException strictFailure) {
            return addressingOnly(topic, data, strictFailure);
        }
    }

    private static CommandEnvelope addressingOnly(String topic, byte[] data, SerializationException strictFailure) {
        JsonNode tree;
        try {
            tree = GatewayJson.MAPPER.readTree(data);
        } catch (JacksonException notJson) {
            throw strictFailure;
        }
        if (tree == null || !tree.isObject()) {
            throw strictFailure;
        }
        String commandId = text(tree, "commandId");
        // the cause's message may quote the payload; the class says enough
        log.warn("command {} on {} is malformed ({}); answering it as invalid", commandId, topic,
                strictFailure.getCause() == null ? strictFailure.getClass().getName() : strictFailure.getCause().getClass().getName());
        JsonNode partition = tree.get("replyPartition");
        return new CommandEnvelope(tree.path("schemaVersion").asInt(0), commandId, text(tree, "workspaceId"),
                text(tree, "correlationId"), null,
                partition != null && partition.isIntegralNumber() ? partition.asInt() : null,
                null, null);
    }

    private static String text(JsonNode tree, String field) {
        JsonNode node = tree.get(field);
        return node != null && node.isString() ? node.asString() : null;
    }
}
