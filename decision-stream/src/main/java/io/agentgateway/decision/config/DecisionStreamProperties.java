package io.agentgateway.decision.config;

import io.agentgateway.decision.DecisionSettings;
import io.agentgateway.decision.runtime.ProcessingGuarantee;
import io.agentgateway.decision.runtime.StreamsOptions;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.decision.*}: how the decision stream runs and the settings of the decision logic.
 *
 * @param commitIntervalMs  empty: 5000 for at_least_once, 10 for exactly_once_v2
 * @param pollMs            empty: Streams' default for at_least_once, 10 for exactly_once_v2
 * @param stateDir          empty: Streams' default ({@code java.io.tmpdir}/kafka-streams)
 */
@ConfigurationProperties("gateway.decision")
public record DecisionStreamProperties(
        @DefaultValue(StreamsOptions.DEFAULT_APPLICATION_ID) String applicationId,
        @DefaultValue("at_least_once") ProcessingGuarantee processingGuarantee,
        Long commitIntervalMs,
        Long pollMs,
        String stateDir,
        @DefaultValue("1") int numStreamThreads,
        @DefaultValue("1") int lingerMs,
        @DefaultValue("5") int maxInFlight,
        @DefaultValue("500") int fetchMaxWaitMs,
        @DefaultValue("PT24H") Duration approvalTtl,
        @DefaultValue("4096") int payloadExcerptBytes,
        @DefaultValue("PT1H") Duration dedupeRetention,
        @DefaultValue("PT10S") Duration closeTimeout) {

    public DecisionSettings settings() {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention);
    }

    public StreamsOptions streamsOptions(short replicationFactor) {
        return new StreamsOptions(applicationId, processingGuarantee, commitIntervalMs, pollMs, stateDir,
                numStreamThreads, replicationFactor, lingerMs, maxInFlight, fetchMaxWaitMs);
    }
}
