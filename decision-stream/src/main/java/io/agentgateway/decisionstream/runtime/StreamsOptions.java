package io.agentgateway.decisionstream.runtime;

import java.util.Objects;

/**
 * How the decision stream runs on Kafka Streams, independent of Spring.
 *
 * @param commitIntervalMs  null: the guarantee's default for the replication (5,000 at-least-once; exactly-once 10
 *                          on a single broker, 100 with replicated topics: {@link ProcessingGuarantee})
 * @param pollMs            null: the guarantee's default (Streams' default at-least-once, 10 exactly-once)
 * @param stateDir          null: Streams' default ({@code java.io.tmpdir}/kafka-streams)
 * @param lingerMs          Streams' producer defaults to 100, which would delay every reply by 100 ms
 * @param maxInFlight       produce requests the stream's producer has out at once (1 to 5). With {@code lingerMs}
 *                          0 and 1 here the producer batches by load instead of by timer, which lowers the
 *                          latency of a gateway at a few hundred decisions a second but costs p99 near 500/s
 *                          (measured: decision-stream/README.md), so the default stays 5 with linger 1
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
        int maxInFlight,
        int fetchMaxWaitMs) {

    /**
     * "-v2" since the workspace state moved from one value per workspace to stores at the grain that changes
     * together: a new application id decides the commands log from its beginning into the new stores
     * (docs/reference/decision-stream.md, "Upgrading from the single-value state").
     */
    public static final String DEFAULT_APPLICATION_ID = "gateway-decision-stream-v2";

    public StreamsOptions {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(processingGuarantee, "processingGuarantee");
        if (maxInFlight < 1 || maxInFlight > 5) {
            // an idempotent producer keeps order with at most five requests out
            throw new IllegalArgumentException("maxInFlight must be between 1 and 5");
        }
    }

    public static StreamsOptions defaults() {
        return new StreamsOptions(DEFAULT_APPLICATION_ID, ProcessingGuarantee.AT_LEAST_ONCE, null, null, null, 1,
                (short) 1, 1, 5, 500);
    }

    /**
     * The commit interval for topics with {@code replicationFactor} replicas (the factor resolved from the
     * cluster when {@link #replicationFactor()} leaves it to the cluster).
     */
    public long effectiveCommitIntervalMs(short replicationFactor) {
        return commitIntervalMs != null ? commitIntervalMs : processingGuarantee.defaultCommitIntervalMs(replicationFactor);
    }

    public Long effectivePollMs() {
        return pollMs != null ? pollMs : processingGuarantee.defaultPollMs();
    }
}
