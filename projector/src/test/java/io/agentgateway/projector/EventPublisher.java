package io.agentgateway.projector;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes to the events topic as the decision stream does (keyed by workspace id, so one workspace
 * stays in one partition and in order), and can also write raw bytes there.
 */
final class EventPublisher implements AutoCloseable {
    private final KafkaProducer<String, EventEnvelope> events;
    private final KafkaProducer<String, byte[]> raw;

    EventPublisher() {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfra.kafka().bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 0);
        this.events = new KafkaProducer<>(config, Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer());
        this.raw = new KafkaProducer<>(config, Topics.EVENTS.keySerde().serializer(), new ByteArraySerializer());
    }

    /** Sends in order and returns once the broker has them all. */
    void publish(List<EventEnvelope> envelopes) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (EventEnvelope envelope : envelopes) {
            sent.add(events.send(new ProducerRecord<>(Topics.EVENTS.name(), envelope.workspaceId(), envelope)));
        }
        sent.forEach(EventPublisher::awaitAck);
    }

    void publish(EventEnvelope... envelopes) {
        publish(List.of(envelopes));
    }

    void publishRaw(String workspaceId, byte[] value) {
        awaitAck(raw.send(new ProducerRecord<>(Topics.EVENTS.name(), workspaceId, value)));
    }

    private static void awaitAck(Future<RecordMetadata> ack) {
        try {
            ack.get();
        } catch (Exception e) {
            throw new IllegalStateException("the broker did not take an event", e);
        }
    }

    @Override
    public void close() {
        events.close();
        raw.close();
    }
}
