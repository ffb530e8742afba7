package io.agentgateway.decisionstream.config;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Ready: this instance decides, Kafka Streams RUNNING with at least one active task. The readiness group
 * ({@code /actuator/health/readiness}) is this alone: what a rolling restart waits for before it stops the next
 * instance. An instance that came back holds standby copies only until they have caught up and a rebalance hands its
 * tasks back (at most {@code probing.rebalance.interval.ms}, a minute); stopping the other one before that would move
 * every task to it at once, to a JVM seconds old (docs/operating-a-cluster.md, "Upgrading a running cluster"). The
 * health ({@link DecisionStreamHealthIndicator}) stays UP meanwhile: a restarted instance is healthy, just not
 * deciding yet. An instance beyond the number of partitions never decides and never reports ready: it is a spare.
 */
public class DecisionStreamReadinessIndicator implements HealthIndicator {
    private final DecisionStreamLifecycle lifecycle;

    public DecisionStreamReadinessIndicator(DecisionStreamLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public Health health() {
        int active = lifecycle.activeTaskCount();
        boolean deciding = lifecycle.isDeciding();
        return (deciding ? Health.up() : Health.outOfService()).withDetail("activeTasks", active).build();
    }
}
