package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * The Kafka client settings of the command gateway. Three layers: latency and fail-fast defaults of
 * our own, then whatever the standard {@code spring.kafka.*} keys say (so security settings and
 * tuning such as {@code spring.kafka.producer.properties.linger.ms} apply), then the invariants the
 * gateway's correctness depends on, which no setting may weaken.
 */
final class GatewayKafkaConfigs {
    /** How long {@code send} may wait for metadata or buffer room before the caller gets 503. */
    static final int MAX_BLOCK_MS = 1_000;
    /** A produce request unanswered this long is retried on a fresh connection (the leader may have moved). */
    static final int REQUEST_TIMEOUT_MS = 2_000;
    /** A command not acknowledged this long after its send is given up on (503; it may have been written). */
    static final int DELIVERY_TIMEOUT_MS = 3_000;

    private GatewayKafkaConfigs() {}

    static Map<String, Object> producer(KafkaProperties kafka) {
        // what every client of the gateway waits on a broker, and the commands topic's metadata kept for good:
        // send() would block an event-loop thread for max.block.ms if it had to fetch it again after an idle period
        Map<String, Object> config = new HashMap<>(KafkaClientTimeouts.producer());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // a caller waits for the answer: a publish that cannot be made turns into a 503 within the reply timeout
        // (5 s) instead of after Kafka's 60 s / 30 s / 2 minutes
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "ingress-commands-" + shortId());
        config.putAll(kafka.buildProducerProperties());
        config.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        config.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        // a command acknowledged by the broker must survive a broker failure, exactly once in the log
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return config;
    }

    static Map<String, Object> replyConsumer(KafkaProperties kafka, int replyPartition) {
        return assignedConsumer(kafka, "ingress-replies-p" + replyPartition + "-" + shortId());
    }

    /** The events reader of {@link LiveEvents}: as the reply consumer, on the events topic's every partition. */
    static Map<String, Object> eventsConsumer(KafkaProperties kafka) {
        Map<String, Object> config = assignedConsumer(kafka, "ingress-live-events-" + shortId());
        // a quiet topic is polled again soon: the poll loop also notices that nobody watches any more
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        return config;
    }

    /** A consumer that assigns its partitions itself and reads from their end, as this replica alone. */
    private static Map<String, Object> assignedConsumer(KafkaProperties kafka, String clientId) {
        // a dead leader of a partition it reads is left for its successor within a failover
        Map<String, Object> config = new HashMap<>(KafkaClientTimeouts.consumer());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.putAll(kafka.buildConsumerProperties());
        config.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        config.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        // assign() without a group: no rebalance can move a partition away from this replica, and every replica reads
        // every record it assigns (a group would hand each to one of them)
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // a metadata request must never create a topic with broker defaults (one partition, default retention) before
        // TopicProvisioner creates it properly
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // a record written in an aborted transaction (exactly-once decision stream) is no decision, no event
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return config;
    }

    /** For {@code TopicProvisioner}, which takes the bootstrap servers only. */
    static String bootstrapServers(KafkaProperties kafka) {
        return String.join(",", kafka.getBootstrapServers());
    }

    private static String shortId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
