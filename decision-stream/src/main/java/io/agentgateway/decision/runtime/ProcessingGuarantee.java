package io.agentgateway.decision.runtime;

import org.apache.kafka.streams.StreamsConfig;

/**
 * At-least-once is the fast default: duplicates are harmless because every id is derived from the
 * command id and the topology re-emits a processed command's stored outcome. Exactly-once is the
 * compliance option; a reply becomes visible only at the next commit, so it needs a short commit
 * interval and a short poll to be usable (DESIGN.md "Latency").
 */
public enum ProcessingGuarantee {
    AT_LEAST_ONCE(StreamsConfig.AT_LEAST_ONCE, 100L, null),
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
