package io.agentgateway.decision;

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
 */
public record DecisionSettings(Duration approvalTtl, int payloadExcerptBytes, Duration dedupeRetention) {

    public static final Duration DEFAULT_APPROVAL_TTL = Duration.ofHours(24);
    public static final int DEFAULT_PAYLOAD_EXCERPT_BYTES = 4096;
    public static final Duration DEFAULT_DEDUPE_RETENTION = Duration.ofHours(1);

    public DecisionSettings {
        Objects.requireNonNull(approvalTtl, "approvalTtl");
        Objects.requireNonNull(dedupeRetention, "dedupeRetention");
        if (approvalTtl.isNegative() || approvalTtl.isZero()) {
            throw new IllegalArgumentException("approvalTtl must be positive");
        }
        if (payloadExcerptBytes < 1) {
            throw new IllegalArgumentException("payloadExcerptBytes must be at least 1");
        }
        if (dedupeRetention.toMillis() < 1) {
            throw new IllegalArgumentException("dedupeRetention must be positive");
        }
    }

    public static DecisionSettings defaults() {
        return new DecisionSettings(DEFAULT_APPROVAL_TTL, DEFAULT_PAYLOAD_EXCERPT_BYTES, DEFAULT_DEDUPE_RETENTION);
    }

    public DecisionSettings withApprovalTtl(Duration ttl) {
        return new DecisionSettings(ttl, payloadExcerptBytes, dedupeRetention);
    }

    public DecisionSettings withPayloadExcerptBytes(int bytes) {
        return new DecisionSettings(approvalTtl, bytes, dedupeRetention);
    }

    public DecisionSettings withDedupeRetention(Duration retention) {
        return new DecisionSettings(approvalTtl, payloadExcerptBytes, retention);
    }
}
