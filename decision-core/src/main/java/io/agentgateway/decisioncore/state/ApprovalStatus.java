package io.agentgateway.decisioncore.state;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Lifecycle of an approval request (DESIGN.md "Approvals"): {@code pending → approved → executing →
 * executed | failed}, {@code pending → rejected}, {@code pending → expired}, {@code approved →
 * cancelled} (the kill switch or the tool's pause at the claim: the call never runs). The workspace state only
 * holds approvals that can still move ({@link #PENDING}, {@link #APPROVED} with a call to run,
 * {@link #EXECUTING}); the others live on in the read model only.
 */
public enum ApprovalStatus {
    PENDING,
    APPROVED,
    REJECTED,
    EXPIRED,
    /** Claimed by one executor, which is running the call; nobody else ever will. */
    EXECUTING,
    EXECUTED,
    FAILED,
    /** Approved, but not run: when it was claimed the workspace was killed or its tool paused. Ended for good. */
    CANCELLED;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
