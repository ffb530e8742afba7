package io.agentgateway.projector.consume;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** Group settings that move a dead projector's partitions within seconds instead of Kafka's 45 s session. */
final class ConsumerFailover {
    private ConsumerFailover() {}

    /** @param instanceId unique per instance; null or blank: dynamic membership (spring-kafka suffixes it per thread) */
    static void apply(Map<String, Object> props, String instanceId, Duration sessionTimeout) {
        if (instanceId != null && !instanceId.isBlank()) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId.trim());
        }
        int sessionMs = Math.toIntExact(sessionTimeout.toMillis());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionMs);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(500, sessionMs / 4));
    }
}
