package io.agentgateway.schemas.kafka;

import io.agentgateway.schemas.GatewayJson;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.core.JacksonException;

/**
 * Kafka serde for one contract type using {@link GatewayJson#MAPPER}. A record that does not parse
 * raises Kafka's {@link SerializationException}, which the consumers' error handlers turn into a
 * skipped-and-counted poison record rather than a stuck partition.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        try {
            return GatewayJson.MAPPER.writeValueAsBytes(data);
        } catch (JacksonException e) {
            throw new SerializationException("cannot write " + type.getSimpleName() + " for " + topic, e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return GatewayJson.MAPPER.readValue(data, type);
        } catch (JacksonException e) {
            throw new SerializationException("cannot read " + type.getSimpleName() + " from " + topic, e);
        }
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
        // nothing to configure: the mapper is the contract's own
    }

    @Override
    public void close() {
        // stateless
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }
}
