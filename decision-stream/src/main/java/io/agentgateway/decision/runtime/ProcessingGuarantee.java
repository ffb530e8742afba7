package io.agentgateway.decision.runtime;

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
 */
public enum ProcessingGuarantee {
    AT_LEAST_ONCE(StreamsConfig.AT_LEAST_ONCE, 5_000L, null),
    EXACTLY_ONCE_V2(StreamsConfig.EXACTLY_ONCE_V2, 10L, 10L);

    private final String streamsValue;
    private final long defaultCommitIntervalMs;
    private final Long defaultPollMs;

    ProcessingGuarantee(String streamsValue, long defaultCommitIntervalMs, Long defaultPollMs) {
        this.streamsValue = streamsValue;
        this.defaultCommitIntervalMs = defaultCommitIntervalMs;
        this.defaultPollMs = defaultPollMs;
    }

    public String streamsValue() {
        return streamsValue;
    }

    public long defaultCommitIntervalMs() {
        return defaultCommitIntervalMs;
    }

    /** null keeps Streams' own default (records wake a poll up at once; only commits wait for it). */
    public Long defaultPollMs() {
        return defaultPollMs;
    }
}
