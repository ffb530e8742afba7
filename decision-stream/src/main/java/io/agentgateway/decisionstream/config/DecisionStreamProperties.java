package io.agentgateway.decisionstream.config;

import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.FailoverOptions;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.decision.*}: how the decision stream runs and the settings of the decision logic.
 *
 * @param commitIntervalMs  empty: 5000 for at_least_once; for exactly_once_v2 10 on a single broker, 100 when the
 *                          topics are replicated
 * @param pollMs            empty: Streams' default for at_least_once, 10 for exactly_once_v2
 * @param stateDir          empty: Streams' default ({@code java.io.tmpdir}/kafka-streams)
 * @param instanceId        {@code group.instance.id}; empty: kept in the state directory when one is configured
 *                          (created on first start), else none (dynamic membership); {@code none}: never
 * @param sessionTimeout    a silent instance's tasks move to another one after this (Kafka's default: 45 s)
 * @param numStandbyReplicas warm copies of each task's state on the other instances
 * @param transactionTimeout exactly-once: how long a dead instance's open transaction can hold back replies
 * @param fourEyes          the four-eyes rule: the user an evaluation names as {@code requestedBy} cannot approve it
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
        @DefaultValue("PT10S") Duration closeTimeout,
        @DefaultValue Limits limits,
        @DefaultValue("PT24H") Duration apiKeyGrace,
        @DefaultValue("PT1S") Duration sweepInterval,
        @DefaultValue("16777216") long configCacheBytes,
        String instanceId,
        @DefaultValue("PT6S") Duration sessionTimeout,
        @DefaultValue("1") int numStandbyReplicas,
        @DefaultValue("PT5S") Duration transactionTimeout,
        @DefaultValue Conditions conditions,
        @DefaultValue("false") boolean fourEyes) {

    /**
     * {@code gateway.decision.conditions.*}: the bounds of policy conditions ({@link ConditionLimits}). The admin API's
     * policy test and back-test read the same keys: they must decide as the stream does.
     */
    public record Conditions(
            @DefaultValue("4096") int maxExpressionChars,
            @DefaultValue("48") int maxNesting,
            @DefaultValue("1000") int maxIterations,
            @DefaultValue("65536") int maxArgumentsBytes) {

        public ConditionLimits toLimits() {
            return new ConditionLimits(maxExpressionChars, maxNesting, maxIterations, maxArgumentsBytes);
        }
    }

    /** {@code gateway.decision.limits.*}: the per-workspace limits ({@link DecisionLimits}). */
    public record Limits(
            @DefaultValue("10000") long openApprovals,
            @DefaultValue("10000") long apiKeys,
            @DefaultValue("1000") int policies,
            @DefaultValue("16384") int policyBytes,
            @DefaultValue("1000") int repositoriesPerConnection,
            @DefaultValue("524288") int configurationBytes) {

        DecisionLimits toLimits() {
            return new DecisionLimits(openApprovals, apiKeys, policies, policyBytes, repositoriesPerConnection,
                    configurationBytes);
        }
    }

    public DecisionSettings settings() {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits.toLimits(), apiKeyGrace,
                sweepInterval, configCacheBytes, conditions.toLimits(), fourEyes);
    }

    public StreamsOptions streamsOptions(short replicationFactor) {
        return new StreamsOptions(applicationId, processingGuarantee, commitIntervalMs, pollMs, stateDir,
                numStreamThreads, replicationFactor, lingerMs, maxInFlight, fetchMaxWaitMs);
    }

    public FailoverOptions failoverOptions() {
        String id = instanceId == null ? "" : instanceId.trim();
        if (id.isEmpty() && stateDir != null && !stateDir.isBlank()) {
            id = FailoverOptions.persistentInstanceId(Path.of(stateDir), applicationId);
        } else if (id.equalsIgnoreCase("none")) {
            id = "";
        }
        int session = Math.toIntExact(sessionTimeout.toMillis());
        return new FailoverOptions(id.isEmpty() ? null : id, session, Math.max(500, session / 4), numStandbyReplicas,
                Math.toIntExact(transactionTimeout.toMillis()));
    }
}
