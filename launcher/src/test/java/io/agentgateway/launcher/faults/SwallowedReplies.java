package io.agentgateway.launcher.faults;

import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * A Kafka {@link ConsumerInterceptor} for an ingress's reply consumer in a process of its own
 * ({@code spring.kafka.consumer.properties.interceptor.classes}): every batch of replies is dropped, so that the
 * evaluations that process publishes are decided (and written) but wait unanswered until the process is killed.
 */
public final class SwallowedReplies extends ReplyConsumerInterceptor {
    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        return carriesReplies(records) ? ConsumerRecords.empty() : records;
    }
}
