package io.agentgateway.launcher.faults;

import io.agentgateway.schemas.Topics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the tests' interceptors of an ingress's reply consumer share ({@code spring.kafka.consumer.properties.interceptor.classes}):
 * they act on batches of replies only, and have nothing to do on commit, configure or close.
 */
abstract class ReplyConsumerInterceptor implements ConsumerInterceptor<Object, Object> {
    /** Whether {@code records} holds replies. */
    static boolean carriesReplies(ConsumerRecords<Object, Object> records) {
        return records.partitions().stream().anyMatch(p -> p.topic().equals(Topics.REPLIES.name()));
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {}

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
}
