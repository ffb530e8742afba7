package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.condition.ConditionLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * The knobs of the decision logic itself (not of Kafka Streams). They are part of the "pure function":
 * the same log with the same settings yields the same decisions.
 *
 * @param approvalTtl          how long an approval request stays pending in a workspace that never set
 *                             its own TTL
 * @param payloadExcerptBytes  the UTF-8 byte limit of the payload excerpt kept in the audit log
 * @param dedupeRetention      how long a processed command id is remembered; a redelivery later than
 *                             this (measured in acceptedAt time) would be decided again
 * @param limits               the per-workspace limits
 * @param apiKeyGrace          how long a revoked or expired key stays in the state after it ended (revoking
 *                             it again is answered ok, issuing its id again is a conflict) before the sweep
 *                             removes it
 * @param sweepInterval        how often, in stream time, the expiry sweep runs (approvals expiring, ended
 *                             keys leaving); each run costs one index lookup when nothing is due
 * @param configCacheBytes     per stream task, the decoded configuration values kept in memory (by their
 *                             stored size) so that an evaluation does not parse its workspace's configuration
 * @param conditions           the bounds of policy conditions ({@code gateway.decision.conditions.*})
 * @param fourEyes             the four-eyes rule: a reviewer whose user id or email is the approval's
 *                             {@code requestedBy} cannot approve it (rejecting stays allowed)
 */
public record DecisionSettings(Duration approvalTtl, int payloadExcerptBytes, Duration dedupeRetention,
                               DecisionLimits limits, Duration apiKeyGrace, Duration sweepInterval,
                               long configCacheBytes, ConditionLimits conditions, boolean fourEyes) {

    public static final Duration DEFAULT_APPROVAL_TTL = Duration.ofHours(24);
    public static final int DEFAULT_PAYLOAD_EXCERPT_BYTES = 4096;
    public static final Duration DEFAULT_DEDUPE_RETENTION = Duration.ofHours(1);
    public static final Duration DEFAULT_API_KEY_GRACE = Duration.ofHours(24);
    public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(1);
    public static final long DEFAULT_CONFIG_CACHE_BYTES = 16L * 1024 * 1024;

    public DecisionSettings {
        Objects.requireNonNull(approvalTtl, "approvalTtl");
        Objects.requireNonNull(dedupeRetention, "dedupeRetention");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(apiKeyGrace, "apiKeyGrace");
        Objects.requireNonNull(sweepInterval, "sweepInterval");
        conditions = conditions == null ? ConditionLimits.defaults() : conditions;
        if (approvalTtl.isNegative() || approvalTtl.isZero()) {
            throw new IllegalArgumentException("approvalTtl must be positive");
        }
        if (payloadExcerptBytes < 1) {
            throw new IllegalArgumentException("payloadExcerptBytes must be at least 1");
        }
        if (dedupeRetention.toMillis() < 1) {
            throw new IllegalArgumentException("dedupeRetention must be positive");
        }
        if (apiKeyGrace.isNegative()) {
            throw new IllegalArgumentException("apiKeyGrace must not be negative");
        }
        if (sweepInterval.toMillis() < 1) {
            throw new IllegalArgumentException("sweepInterval must be positive");
        }
        if (configCacheBytes < 0) {
            throw new IllegalArgumentException("configCacheBytes must not be negative");
        }
    }

    /** With the default condition limits and without the four-eyes rule. */
    public DecisionSettings(Duration approvalTtl, int payloadExcerptBytes, Duration dedupeRetention, DecisionLimits limits,
                            Duration apiKeyGrace, Duration sweepInterval, long configCacheBytes) {
        this(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, sweepInterval, configCacheBytes,
                ConditionLimits.defaults(), false);
    }

    public DecisionSettings(Duration approvalTtl, int payloadExcerptBytes, Duration dedupeRetention) {
        this(approvalTtl, payloadExcerptBytes, dedupeRetention, DecisionLimits.defaults(), DEFAULT_API_KEY_GRACE,
                DEFAULT_SWEEP_INTERVAL, DEFAULT_CONFIG_CACHE_BYTES);
    }

    public static DecisionSettings defaults() {
        return new DecisionSettings(DEFAULT_APPROVAL_TTL, DEFAULT_PAYLOAD_EXCERPT_BYTES, DEFAULT_DEDUPE_RETENTION);
    }

    public DecisionSettings withApprovalTtl(Duration ttl) {
        return new DecisionSettings(ttl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, sweepInterval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withPayloadExcerptBytes(int bytes) {
        return new DecisionSettings(approvalTtl, bytes, dedupeRetention, limits, apiKeyGrace, sweepInterval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withDedupeRetention(Duration retention) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, retention, limits, apiKeyGrace, sweepInterval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withLimits(DecisionLimits value) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, value, apiKeyGrace, sweepInterval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withApiKeyGrace(Duration grace) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, grace, sweepInterval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withSweepInterval(Duration interval) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, interval,
                configCacheBytes, conditions, fourEyes);
    }

    public DecisionSettings withConditions(ConditionLimits value) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, sweepInterval,
                configCacheBytes, value, fourEyes);
    }

    public DecisionSettings withConfigCacheBytes(long bytes) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, sweepInterval,
                bytes, conditions, fourEyes);
    }

    public DecisionSettings withFourEyes(boolean value) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, dedupeRetention, limits, apiKeyGrace, sweepInterval,
                configCacheBytes, conditions, value);
    }
}
