package io.agentgateway.launcher;

import io.agentgateway.schemas.Topics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A Kafka {@link ConsumerInterceptor} for an ingress's reply consumer in a process of its own
 * ({@code spring.kafka.consumer.properties.interceptor.classes}): every batch of replies is dropped, so that the
 * evaluations that process publishes are decided (and written) but wait unanswered until the process is killed.
 */
public final class SwallowedReplies implements ConsumerInterceptor<Object, Object> {
    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        boolean replies = records.partitions().stream().anyMatch(p -> p.topic().equals(Topics.REPLIES.name()));
        return replies ? ConsumerRecords.empty() : records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {}

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
