package io.agentgateway.decisionstream.local;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A stream thread's main consumer that, before the thread waits for more commands, sends what its producer holds for
 * callers waiting in this process (docs/decisions/0003-in-process-replies.md). The stream producer lingers
 * ({@code linger.ms}, 1 ms) so that decisions made together leave in one request; a decision made alone would wait out
 * the linger for nothing, and its caller with it. So when a poll would wait (nothing fetched yet) and a caller waits
 * for this producer, the producer is flushed first: one request, answered as soon as the broker acknowledges it. Under
 * load the poll finds commands fetched, nothing is flushed and the linger batches as before. Nothing changes what is
 * written, in which order, or when a reply is due ({@link DurableSendTracker}); only how soon the producer sends it.
 */
final class FlushingMainConsumer extends KafkaConsumer<byte[], byte[]> {
    private final AckObservingClientSupplier clients;

    FlushingMainConsumer(Map<String, Object> config, AckObservingClientSupplier clients) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.clients = clients;
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        AckObservingProducer producer = timeout.isZero() ? null : clients.producerOf(Thread.currentThread().getName());
        if (producer == null || !producer.tracker().awaited()) {
            return super.poll(timeout);
        }
        ConsumerRecords<byte[], byte[]> fetched = super.poll(Duration.ZERO);
        if (!fetched.isEmpty()) {
            return fetched;
        }
        producer.flushForWaitingCallers();
        return super.poll(timeout);
    }
}
