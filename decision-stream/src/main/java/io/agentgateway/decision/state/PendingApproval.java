package io.agentgateway.decision.state;

import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import java.util.Objects;

/**
 * An approval request the workspace is holding, while it can still move on (pending, approved with
 * a call still to run, executing).
 *
 * @param callDigest    SHA-256 hex binding the approval to the exact call (tool, action, payload or held call)
 * @param tool          null only in states stored before it was recorded
 * @param action        idem
 * @param heldCallKind  the kind of call the gateway runs after approval, null when there is none
 * @param claimedBy     the executor that claimed the run (status executing), else null
 */
public record PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status, Tool tool, String action,
                              HeldCallKind heldCallKind, String claimedBy) {
    public PendingApproval {
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(callDigest, "callDigest");
        Objects.requireNonNull(status, "status");
    }

    public PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status) {
        this(expiresAt, callDigest, status, null, null, null, null);
    }

    /** A new pending approval. */
    public static PendingApproval opened(Instant expiresAt, String callDigest, Tool tool, String action,
                                         HeldCallKind heldCallKind) {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.PENDING, tool, action, heldCallKind, null);
    }

    /** Past its expiry: {@code expiresAt} itself is still in time (a review accepted at that instant counts). */
    public boolean expiredAt(Instant at) {
        return at.isAfter(expiresAt);
    }

    public boolean holdsCall() {
        return heldCallKind != null;
    }

    public PendingApproval approved() {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.APPROVED, tool, action, heldCallKind, null);
    }

    public PendingApproval claimedBy(String executorId) {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.EXECUTING, tool, action, heldCallKind, executorId);
    }
}
