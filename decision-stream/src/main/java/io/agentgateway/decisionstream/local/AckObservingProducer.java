package io.agentgateway.decisionstream.local;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * The Streams producer with its sends, commits and aborts reported to a {@link DurableSendTracker}; everything
 * else passes through unchanged.
 */
final class AckObservingProducer implements Producer<byte[], byte[]> {
    private final Producer<byte[], byte[]> delegate;
    private final DurableSendTracker tracker;
    private final Consumer<AckObservingProducer> onClose;

    /** @param onClose told once this producer closed (its supplier forgets it) */
    AckObservingProducer(Producer<byte[], byte[]> delegate, DurableSendTracker tracker, Consumer<AckObservingProducer> onClose) {
        this.delegate = delegate;
        this.tracker = tracker;
        this.onClose = onClose;
    }

    DurableSendTracker tracker() {
        return tracker;
    }

    /**
     * Sends at once, and waits for, what the producer holds while a caller in this process waits for it (see
     * {@link FlushingMainConsumer}). Never under exactly-once, where only the commit makes a reply due.
     */
    void flushForWaitingCallers() {
        if (tracker.awaited()) {
            delegate.flush();
        }
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return delegate.send(record, tracker.onSend(callback));
    }

    @Override
    public void commitTransaction() {
        long mark = tracker.beforeCommit();
        delegate.commitTransaction();
        tracker.committed(mark);
    }

    @Override
    public void abortTransaction() {
        tracker.aborted();
        delegate.abortTransaction();
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            closed();
        }
    }

    @Override
    public void close(Duration timeout) {
        try {
            delegate.close(timeout);
        } finally {
            closed();
        }
    }

    private void closed() {
        tracker.close();
        onClose.accept(this);
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void beginTransaction() {
        delegate.beginTransaction();
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate.partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate.metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }
}
