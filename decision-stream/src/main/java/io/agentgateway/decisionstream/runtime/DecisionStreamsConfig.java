package io.agentgateway.decisionstream.runtime;

import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/** The Kafka Streams configuration of the decision stream: the caller's connection settings plus our tuning. */
public final class DecisionStreamsConfig {
    /** Records of changelog a task's copy may lag by for its instance to be given the task (see failover). */
    static final long ACCEPTABLE_RECOVERY_LAG = 200L;
    /** The record cache, which only the evidence-log store uses: ~300 bytes a workspace, so about 10,000 workspaces. */
    static final long EVIDENCE_LOG_CACHE_BYTES = 4L * 1024 * 1024;
    /**
     * Commands a stream thread takes from one poll (Streams: 1,000). A thread told to stop, or to give a task up in a
     * rebalance, first decides what it took: under exactly-once, behind a backlog, that was up to 1,000 commands at a
     * commit every 100 ms before the task could move, seconds with every workspace of the task on hold. A poll of
     * prefetched commands costs microseconds, so taking fewer at a time costs no throughput.
     */
    static final int MAX_POLL_RECORDS = 100;

    private DecisionStreamsConfig() {}

    /**
     * @param connection bootstrap servers and any security settings; our options override what they share
     */
    public static Properties build(Map<String, ?> connection, StreamsOptions options) {
        return build(connection, options, FailoverOptions.defaults());
    }

    /** As {@link #build(Map, StreamsOptions)}, with how fast partitions move between instances. */
    public static Properties build(Map<String, ?> connection, StreamsOptions options, FailoverOptions failover) {
        Properties props = new Properties();
        // how long its producer, consumers and admin client wait on a broker (KafkaClientTimeouts), unprefixed so
        // that Streams hands each client the keys it knows and an operator's own settings still win
        props.putAll(clientTimeouts());
        props.putAll(connection);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, options.applicationId());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, options.processingGuarantee().streamsValue());
        // a factor left to the cluster: the single broker's interval until useReplication knows the factor
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, options.effectiveCommitIntervalMs(options.replicationFactor()));
        if (options.effectivePollMs() != null) {
            props.put(StreamsConfig.POLL_MS_CONFIG, options.effectivePollMs());
        }
        if (options.stateDir() != null && !options.stateDir().isBlank()) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, options.stateDir());
        }
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, options.numStreamThreads());
        // 0 or less: the broker's default until the lifecycle resolves it from the cluster (useReplication)
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, options.replicationFactor() > 0 ? (int) options.replicationFactor() : -1);
        // the record cache serves the one cached store, evidence-log (a workspace's Merkle log written back once per
        // commit, not once per decision). No output passes through it: every other store is uncached and nothing is
        // forwarded from a store, so no reply or event waits for a flush (DESIGN.md)
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, EVIDENCE_LOG_CACHE_BYTES);
        // a record that is not even JSON cannot be answered; log it and go on rather than stop every workspace
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), options.lingerMs());
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), options.maxInFlight());
        // one source topic, so a task never waits for another input to line up: no task idling. It also
        // skips the log text Streams 4.2 builds on every loop for each task with nothing buffered
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), options.fetchMaxWaitMs());
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), MAX_POLL_RECORDS);
        failover(props, options, failover);
        return props;
    }

    /**
     * Every client's timeouts, the consumers' and admin client's call bound, and the producer's kept metadata. Streams'
     * own bounds stay: the producer's {@code delivery.timeout.ms} (120 s: an output is retried across any failover and
     * only an outage of minutes fails the task) and {@code max.block.ms} (60 s: with the metadata kept, only a full
     * 32 MB buffer blocks a send, when no broker has taken anything for a long time).
     */
    static Map<String, Object> clientTimeouts() {
        Map<String, Object> timeouts = new HashMap<>(KafkaClientTimeouts.consumer());
        timeouts.putAll(KafkaClientTimeouts.producer());
        return timeouts;
    }

    private static void failover(Properties props, StreamsOptions options, FailoverOptions failover) {
        if (failover.instanceId() != null && !failover.instanceId().isBlank()) {
            // Streams suffixes it per stream thread
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), failover.instanceId());
        }
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), failover.sessionTimeoutMs());
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), failover.heartbeatIntervalMs());
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, failover.numStandbyReplicas());
        // A restarted instance gets its tasks back only once its copy of their state is this close (Kafka: 10,000
        // records, "caught up" at once for a gateway's per-task changelogs). Under exactly-once a crash wipes the
        // local state, and the restarted instance took its tasks back at once and restored them from scratch: 8 s
        // of 504s for their workspaces in the fault suite. Under at-least-once its copy is on disk, behind by the
        // last commit interval and the downtime, about 1,000 records a task after 20 s down at 100/s: at 1,000 it
        // sometimes counted as caught up and took tasks while its JVM was seconds old, which stalled their
        // workspaces 5 s (21 callers got 504). Now the survivor keeps them while the restarted instance's copies
        // catch up, and a probing rebalance (each minute, Kafka's least) moves them then. Under heavy load a copy
        // may stay more than 200 records behind: the survivor then keeps the tasks, which costs balance, not answers.
        props.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, ACCEPTABLE_RECOVERY_LAG);
        props.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, 60_000L);
        if (options.processingGuarantee() == ProcessingGuarantee.EXACTLY_ONCE_V2) {
            props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), failover.transactionTimeoutMs());
        }
    }

    /**
     * The replication resolved from the cluster, for the changelogs Streams creates (as for the gateway's topics),
     * and the commit interval for it ({@link StreamsOptions#effectiveCommitIntervalMs(short)}).
     */
    public static void useReplication(Properties props, short factor, int minInsyncReplicas, long commitIntervalMs) {
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitIntervalMs);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) factor);
        props.put(StreamsConfig.topicPrefix(org.apache.kafka.common.config.TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                Integer.toString(minInsyncReplicas));
    }
}
