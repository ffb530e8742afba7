package io.agentgateway.decisionstream.topology;

import io.agentgateway.schemas.command.Reply;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Sends each reply to the partition its command named: every ingress instance reads only its own
 * reply partition, so a reply hashed anywhere else would never reach the caller that waits for it.
 */
final class ReplyPartitioner implements StreamPartitioner<String, Reply> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, Reply reply, int numPartitions) {
        if (reply == null || reply.replyPartition() < 0 || reply.replyPartition() >= numPartitions) {
            // nobody can be waiting on a partition that does not exist; the default spreads these
            return Optional.empty();
        }
        return Optional.of(Set.of(reply.replyPartition()));
    }
}
