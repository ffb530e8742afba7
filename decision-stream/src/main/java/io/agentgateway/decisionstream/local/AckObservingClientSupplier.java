package io.agentgateway.decisionstream.local;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' clients, with every producer wrapped in an {@link AckObservingProducer} kept by the producer's
 * client id, and the main consumer a {@link FlushingMainConsumer}. Streams names a stream thread's producer
 * {@code <thread name>-producer} (at-least-once and exactly-once v2 alike: one producer per thread), so a
 * processor finds the tracker of the producer its records go to from its own thread's name, and the stream
 * thread's consumer the producer to flush before it waits for commands.
 */
public final class AckObservingClientSupplier implements KafkaClientSupplier {
    static final String PRODUCER_SUFFIX = "-producer";

    private final KafkaClientSupplier clients = new DefaultKafkaClientSupplier();
    private final ConcurrentMap<String, AckObservingProducer> producers = new ConcurrentHashMap<>();

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        String clientId = String.valueOf(config.get(ProducerConfig.CLIENT_ID_CONFIG));
        DurableSendTracker tracker = new DurableSendTracker(config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG) != null);
        AckObservingProducer producer = new AckObservingProducer(clients.getProducer(config), tracker,
                closed -> producers.remove(clientId, closed));
        // a producer replaced under exactly-once (or a client rebuilt) takes its thread's place
        producers.put(clientId, producer);
        return producer;
    }

    /** The tracker of the producer the calling stream thread sends with, or null when it has none. */
    public DurableSendTracker trackerOfCurrentThread() {
        return trackerOf(Thread.currentThread().getName());
    }

    DurableSendTracker trackerOf(String streamThreadName) {
        AckObservingProducer producer = producerOf(streamThreadName);
        return producer == null ? null : producer.tracker();
    }

    AckObservingProducer producerOf(String streamThreadName) {
        return producers.get(streamThreadName + PRODUCER_SUFFIX);
    }

    /** The stream thread's main consumer (Streams asks for no other with this method). */
    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new FlushingMainConsumer(config, this);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(config);
    }
}
