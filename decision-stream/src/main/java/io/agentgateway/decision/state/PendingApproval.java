package io.agentgateway.decision.state;

import java.time.Instant;
import java.util.Objects;

/**
 * An approval request the workspace is holding.
 *
 * @param callDigest SHA-256 hex binding the approval to the exact call (tool, action, payload)
 */
public record PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status) {
    public PendingApproval {
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(callDigest, "callDigest");
        Objects.requireNonNull(status, "status");
    }

    public boolean expiredAt(Instant at) {
        return !at.isBefore(expiresAt);
    }
}
