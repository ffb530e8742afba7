package io.agentgateway.decisionstream.config;

import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP while Kafka Streams is RUNNING or REBALANCING (a rebalance is routine and short; reporting it as
 * DOWN would make the service flap), DOWN otherwise.
 */
public class DecisionStreamHealthIndicator implements HealthIndicator {
    private final DecisionStreamLifecycle lifecycle;

    public DecisionStreamHealthIndicator(DecisionStreamLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public Health health() {
        KafkaStreams.State state = lifecycle.streamsState();
        Health.Builder health = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING
                ? Health.up()
                : Health.down();
        return health.withDetail("state", state == null ? "NOT_STARTED" : state.name()).build();
    }
}
