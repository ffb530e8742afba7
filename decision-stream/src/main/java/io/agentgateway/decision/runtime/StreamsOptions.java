package io.agentgateway.decision.runtime;

import java.util.Objects;

/**
 * How the decision stream runs on Kafka Streams, independent of Spring.
 *
 * @param commitIntervalMs  null: the guarantee's default (5,000 at-least-once, 10 exactly-once)
 * @param pollMs            null: the guarantee's default (Streams' default at-least-once, 10 exactly-once)
 * @param stateDir          null: Streams' default ({@code java.io.tmpdir}/kafka-streams)
 * @param lingerMs          Streams' producer defaults to 100, which would delay every reply by 100 ms
 * @param fetchMaxWaitMs    how long the broker may hold a fetch while no command arrives. A command
 *                          appended meanwhile completes the held fetch at once, so this costs no
 *                          latency; set low (5 ms) it only made an idle gateway spin, ~200 empty fetches
 *                          a second, about a fifth of a core
 */
public record StreamsOptions(
        String applicationId,
        ProcessingGuarantee processingGuarantee,
        Long commitIntervalMs,
        Long pollMs,
        String stateDir,
        int numStreamThreads,
        short replicationFactor,
        int lingerMs,
        int fetchMaxWaitMs) {

    public static final String DEFAULT_APPLICATION_ID = "gateway-decision-stream";

    public StreamsOptions {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(processingGuarantee, "processingGuarantee");
    }

    public static StreamsOptions defaults() {
        return new StreamsOptions(DEFAULT_APPLICATION_ID, ProcessingGuarantee.AT_LEAST_ONCE, null, null, null, 1,
                (short) 1, 1, 500);
    }

    public long effectiveCommitIntervalMs() {
        return commitIntervalMs != null ? commitIntervalMs : processingGuarantee.defaultCommitIntervalMs();
    }

    public Long effectivePollMs() {
        return pollMs != null ? pollMs : processingGuarantee.defaultPollMs();
    }
}
