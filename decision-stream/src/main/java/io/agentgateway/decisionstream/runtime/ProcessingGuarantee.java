package io.agentgateway.decisionstream.runtime;

import org.apache.kafka.streams.StreamsConfig;

/**
 * At-least-once is the fast default: duplicates are harmless because every id is derived from the
 * command id and the topology re-emits a processed command's stored outcome. Exactly-once is the
 * compliance option; a reply becomes visible only at the next commit, so it needs a short commit
 * interval and a short poll to be usable (DESIGN.md "Latency").
 *
 * <p>At-least-once commits rarely on purpose: every commit first flushes the producer, and the stream
 * thread waits for that flush (and the offset commit after it) with every command behind it queued.
 * At 100 ms a profile under load showed the stream thread parked in {@code KafkaProducer.flush} half of
 * the time. Replies do not wait for commits under at-least-once, and what a longer interval costs is
 * only more commands re-read after a crash, each answered from the processed-commands store.
 *
 * <p>Exactly-once commits every 10 ms on a single broker, but every 100 ms (Streams' own default under
 * exactly-once) when the topics are replicated. Each commit ends a transaction whose markers every
 * partition it wrote must replicate before the next transaction may write there; on 3 brokers at 10 ms the
 * next transaction's writes kept meeting the last one's markers ({@code CONCURRENT_TRANSACTIONS}, retried
 * after 100 ms to 1 s), and the fault suite's two instances fell 30 s behind 100 evaluations/s at the
 * start of load: every caller got 504 for half a minute after start and after each fault. At 100 ms they
 * kept up, and a decision-stream crash cost 1.6 s of 504s instead of 45 s (docs/operating-a-cluster.md).
 */
public enum ProcessingGuarantee {
    AT_LEAST_ONCE(StreamsConfig.AT_LEAST_ONCE, 5_000L, 5_000L, null),
    EXACTLY_ONCE_V2(StreamsConfig.EXACTLY_ONCE_V2, 10L, 100L, 10L);

    private final String streamsValue;
    private final long defaultCommitIntervalMs;
    private final long replicatedCommitIntervalMs;
    private final Long defaultPollMs;

    ProcessingGuarantee(String streamsValue, long defaultCommitIntervalMs, long replicatedCommitIntervalMs,
            Long defaultPollMs) {
        this.streamsValue = streamsValue;
        this.defaultCommitIntervalMs = defaultCommitIntervalMs;
        this.replicatedCommitIntervalMs = replicatedCommitIntervalMs;
        this.defaultPollMs = defaultPollMs;
    }

    public String streamsValue() {
        return streamsValue;
    }

    /** The commit interval for topics with {@code replicationFactor} replicas. */
    public long defaultCommitIntervalMs(short replicationFactor) {
        return replicationFactor > 1 ? replicatedCommitIntervalMs : defaultCommitIntervalMs;
    }

    /** null keeps Streams' own default (records wake a poll up at once; only commits wait for it). */
    public Long defaultPollMs() {
        return defaultPollMs;
    }
}
