package io.agentgateway.schemas.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How long every Kafka client of the gateway waits on a broker, each value chosen for failover (the table "Failover
 * settings" in docs/operating-a-cluster.md says why, value by value). One broker of three may die at any time; its
 * partitions get new leaders once the controller fences it ({@code broker.session.timeout.ms}, 6 s), and every client
 * must be talking to them within the 10 s that a failover may cost. Kafka's own defaults assume a broker that dies
 * says so: a request to a host that vanished (no reset, a network partition, a frozen process) is waited on for 30 s,
 * a blocking call for 60 s, a connection attempt for 10 s (30 s when repeated), and that is what a caller then waits.
 *
 * <p>Each service puts these first and its own and the operator's settings ({@code spring.kafka.*}) after, so any of
 * them can still be changed per deployment.
 */
public final class KafkaClientTimeouts {
    /**
     * A request unanswered this long is given up and its connection closed, so the client asks for metadata again and
     * finds the new leader. Below the broker's fencing (6 s) so that the first retry after it goes to the new leader;
     * far above a fetch's wait at the broker (at most 500 ms here) and a healthy produce's replication (milliseconds).
     * For a producer it is also how long the leader holds an {@code acks=all} write for its followers: one held for a
     * dead follower fails after it and is retried (idempotent, so never written twice) until the follower is fenced.
     */
    public static final int REQUEST_TIMEOUT_MS = 5_000;
    /**
     * The bound of a consumer's or admin client's blocking call (a commit, a position, a committed offset, a listing):
     * more than one failover (fencing, election, the retries after it: up to 10 s), so a call made while a coordinator
     * or leader moves completes instead of failing; much less than Kafka's 60 s, which held a stream thread that long.
     */
    public static final int DEFAULT_API_TIMEOUT_MS = 15_000;
    /**
     * How long a connection attempt may take before another broker is tried. A live broker accepts within
     * milliseconds, one on this host refuses at once; only a host that is gone leaves the attempt unanswered (Kafka:
     * 10 s, then twice as long per failed attempt up to 30 s).
     */
    public static final long SOCKET_CONNECTION_SETUP_TIMEOUT_MS = 2_000;
    public static final long SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS = 8_000;
    /** Reconnecting to a broker that refused: from 50 ms, at most every second (Kafka's values, kept on purpose). */
    public static final long RECONNECT_BACKOFF_MS = 50;
    public static final long RECONNECT_BACKOFF_MAX_MS = 1_000;
    /** Retrying a failed request or a metadata refresh: from 100 ms, at most every second (Kafka's values). */
    public static final long RETRY_BACKOFF_MS = 100;
    public static final long RETRY_BACKOFF_MAX_MS = 1_000;
    /**
     * Metadata is fetched again on every error that names a moved or missing leader, and a dead broker's connection
     * fails every request to it; this periodic refresh only catches a leader that moved while a client sent it nothing,
     * which its next request then finds out anyway. Kafka's 5 minutes, kept on purpose.
     */
    public static final long METADATA_MAX_AGE_MS = 300_000;
    /**
     * A producer forgets a topic it has not written to for this long, and its next send to it then blocks in
     * {@code waitOnMetadata} (up to {@code max.block.ms}) while the metadata is fetched again: on the decision
     * stream's thread that stalls every decision, and during a failover the fetch may wait on the broker that died.
     * The gateway's producers write a fixed set of topics (some of them rarely: notifications, the changelogs of keys
     * and settings), so they keep their metadata for good (Kafka: 5 minutes).
     */
    public static final long PRODUCER_METADATA_MAX_IDLE_MS = Duration.ofDays(365).toMillis();

    private KafkaClientTimeouts() {}

    /** What every client shares: requests, connections, retries, metadata. */
    public static Map<String, Object> common() {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        config.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, SOCKET_CONNECTION_SETUP_TIMEOUT_MS);
        config.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS);
        config.put(CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG, RECONNECT_BACKOFF_MS);
        config.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, RECONNECT_BACKOFF_MAX_MS);
        config.put(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, RETRY_BACKOFF_MS);
        config.put(CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, RETRY_BACKOFF_MAX_MS);
        config.put(CommonClientConfigs.METADATA_MAX_AGE_CONFIG, METADATA_MAX_AGE_MS);
        return config;
    }

    /** A consumer's: {@link #common()} and the bound of its blocking calls. */
    public static Map<String, Object> consumer() {
        Map<String, Object> config = common();
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, DEFAULT_API_TIMEOUT_MS);
        return config;
    }

    /** A producer's: {@link #common()} and its topics' metadata kept. */
    public static Map<String, Object> producer() {
        Map<String, Object> config = common();
        config.put(ProducerConfig.METADATA_MAX_IDLE_CONFIG, PRODUCER_METADATA_MAX_IDLE_MS);
        return config;
    }

    /** An admin client's: {@link #common()} and the bound of its calls. */
    public static Map<String, Object> admin() {
        Map<String, Object> config = common();
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, DEFAULT_API_TIMEOUT_MS);
        return config;
    }
}
