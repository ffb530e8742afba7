package io.agentgateway.decision.runtime;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/** The Kafka Streams configuration of the decision stream: the caller's connection settings plus our tuning. */
public final class DecisionStreamsConfig {
    private DecisionStreamsConfig() {}

    /**
     * @param connection bootstrap servers and any security settings; our options override what they share
     */
    public static Properties build(Map<String, ?> connection, StreamsOptions options) {
        Properties props = new Properties();
        props.putAll(connection);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, options.applicationId());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, options.processingGuarantee().streamsValue());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, options.effectiveCommitIntervalMs());
        if (options.effectivePollMs() != null) {
            props.put(StreamsConfig.POLL_MS_CONFIG, options.effectivePollMs());
        }
        if (options.stateDir() != null && !options.stateDir().isBlank()) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, options.stateDir());
        }
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, options.numStreamThreads());
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) options.replicationFactor());
        // no record caches: a cache holds output back until it flushes (DESIGN.md)
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
        // a record that is not even JSON cannot be answered; log it and go on rather than stop every workspace
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), options.lingerMs());
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), options.maxInFlight());
        // one source topic, so a task never waits for another input to line up: no task idling. It also
        // skips the log text Streams 4.2 builds on every loop for each task with nothing buffered
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), options.fetchMaxWaitMs());
        return props;
    }
}
