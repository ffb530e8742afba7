package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An approval request the workspace is holding, while it can still move on (pending, approved with
 * a call still to run, executing): one entry of the {@code approvals} store.
 *
 * @param callDigest    SHA-256 hex binding the approval to the exact call (tool, action, payload or held call)
 * @param tool          the tool asked for
 * @param action        the action asked for
 * @param heldCallKind  the kind of call the gateway runs after approval, null when there is none
 * @param claimedBy     the executor that claimed the run (status executing), else null
 * @param forgetAt      once approved: when the state lets go of it if its call was never claimed or its run
 *                      never recorded (one approval TTL after its expiry); null while pending
 * @param requestedBy   who the agent said initiated the action ({@code requestedBy} of its evaluation), or null: under
 *                      the four-eyes rule that user may not approve it
 * @param requestedAt   when the evaluation that opened it was accepted; null for entries stored before it was kept
 * @param requestedByKeyHash the hash of the API key whose evaluation opened it: the only key that may withdraw it,
 *                      and the key an MCP task of it is bound to; null when no key opened it (a webhook) or before it
 *                      was kept
 */
public record PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status, Tool tool, String action,
                              HeldCallKind heldCallKind, String claimedBy, Instant forgetAt, String requestedBy,
                              Instant requestedAt, String requestedByKeyHash) {
    public PendingApproval {
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(callDigest, "callDigest");
        Objects.requireNonNull(status, "status");
    }

    public PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status) {
        this(expiresAt, callDigest, status, null, null, null, null, null, null, null, null);
    }

    /** Without when and by whom it was opened (the stored form before the four-eyes rule and MCP tasks). */
    public PendingApproval(Instant expiresAt, String callDigest, ApprovalStatus status, Tool tool, String action,
                           HeldCallKind heldCallKind, String claimedBy, Instant forgetAt) {
        this(expiresAt, callDigest, status, tool, action, heldCallKind, claimedBy, forgetAt, null, null, null);
    }

    /** A new pending approval. */
    public static PendingApproval opened(Instant expiresAt, String callDigest, Tool tool, String action,
                                         HeldCallKind heldCallKind) {
        return opened(expiresAt, callDigest, tool, action, heldCallKind, null, null, null);
    }

    /**
     * A new pending approval of an action {@code requestedBy} initiated (null: nobody named), opened at
     * {@code requestedAt} by the API key {@code requestedByKeyHash} (null: none).
     */
    public static PendingApproval opened(Instant expiresAt, String callDigest, Tool tool, String action,
                                         HeldCallKind heldCallKind, String requestedBy, Instant requestedAt,
                                         String requestedByKeyHash) {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.PENDING, tool, action, heldCallKind, null, null,
                requestedBy, requestedAt, requestedByKeyHash);
    }

    /** Whether this API key (its hash) opened it. */
    public boolean openedByKey(String apiKeyHash) {
        return requestedByKeyHash != null && requestedByKeyHash.equals(apiKeyHash);
    }

    /** Past its expiry: {@code expiresAt} itself is still in time (a review accepted at that instant counts). */
    public boolean expiredAt(Instant at) {
        return at.isAfter(expiresAt);
    }

    public boolean holdsCall() {
        return heldCallKind != null;
    }

    /**
     * When the expiry sweep next has to look at it: a pending approval at its expiry (it then expires),
     * an approved or executing one at {@link #forgetAt} (it is then dropped without an event).
     */
    public Instant sweepAt() {
        return status == ApprovalStatus.PENDING || forgetAt == null ? expiresAt : forgetAt;
    }

    /** @param forgetAfter how long after its expiry an approved call that never ran is let go of */
    public PendingApproval approved(Duration forgetAfter) {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.APPROVED, tool, action, heldCallKind, null,
                expiresAt.plus(forgetAfter), requestedBy, requestedAt, requestedByKeyHash);
    }

    public PendingApproval claimedBy(String executorId) {
        return new PendingApproval(expiresAt, callDigest, ApprovalStatus.EXECUTING, tool, action, heldCallKind, executorId,
                forgetAt, requestedBy, requestedAt, requestedByKeyHash);
    }
}
