package io.agentgateway.decisionstream.config;

import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the decision stream with the application context and closes it (bounded by
 * {@code gateway.decision.close-timeout}) when the context stops. {@link #start()} returns once
 * Kafka Streams is started, not when it is RUNNING: callers that need decisions wait with
 * {@link #awaitRunning(Duration)}.
 */
public class DecisionStreamLifecycle implements SmartLifecycle {
    private final DecisionStreamRunner runner;
    private final String bootstrapServers;
    private final TopicProvisioner.Layout layout;
    private final Duration closeTimeout;
    private final StreamsOptions options;
    private volatile boolean started;

    public DecisionStreamLifecycle(DecisionStreamRunner runner, String bootstrapServers, TopicProvisioner.Layout layout,
            Duration closeTimeout, StreamsOptions options) {
        this.runner = runner;
        this.bootstrapServers = bootstrapServers;
        this.layout = layout;
        this.closeTimeout = closeTimeout;
        this.options = options;
    }

    @Override
    public void start() {
        // every service creates missing topics, so the services can start in any order
        TopicProvisioner.Replication replication = TopicProvisioner.ensureTopics(bootstrapServers, layout);
        // the changelogs get the replication of the gateway's own topics, and exactly-once a commit interval for it
        runner.useReplication(replication.factor(), replication.minInsyncReplicas(),
                options.effectiveCommitIntervalMs(replication.factor()));
        runner.start();
        started = true;
    }

    @Override
    public void stop() {
        started = false;
        runner.close(closeTimeout);
    }

    /** Whether the lifecycle was started (Spring's sense); see {@link #isStreamsRunning()} for processing. */
    @Override
    public boolean isRunning() {
        return started;
    }

    /** True when Kafka Streams is RUNNING: partitions assigned, commands being decided. */
    public boolean isStreamsRunning() {
        return runner.isRunning();
    }

    /** RUNNING with active tasks: this instance decides (a restarted one holds copies only until it caught up). */
    public boolean isDeciding() {
        return runner.isDeciding();
    }

    /** The tasks this instance decides for now. */
    public int activeTaskCount() {
        return runner.activeTaskCount();
    }

    /** The Kafka Streams state; null before the first start, NOT_RUNNING after stop. */
    public KafkaStreams.State streamsState() {
        return runner.state();
    }

    /**
     * Blocks until Kafka Streams is RUNNING.
     *
     * @throws io.agentgateway.decisionstream.runtime.StreamsNotRunningException on timeout or when it stopped
     */
    public void awaitRunning(Duration timeout) {
        runner.awaitRunning(timeout);
    }
}
