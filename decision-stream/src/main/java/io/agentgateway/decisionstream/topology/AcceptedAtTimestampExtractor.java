package io.agentgateway.decisionstream.topology;

import io.agentgateway.schemas.command.CommandEnvelope;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Stream time is the ingress's acceptedAt, not the broker's append time, so that windows (the dedupe
 * retention) and every output timestamp are the same on a replay as they were the first time.
 */
final class AcceptedAtTimestampExtractor implements TimestampExtractor {

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        if (record.value() instanceof CommandEnvelope envelope && envelope.acceptedAt() != null) {
            return envelope.acceptedAt().toEpochMilli();
        }
        return record.timestamp() >= 0 ? record.timestamp() : Math.max(partitionTime, 0);
    }
}
