package io.agentgateway.decision.state;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Lifecycle of an approval request (DESIGN.md "Approvals"). The decision stream opens approvals as
 * {@link #PENDING}; the review commands move them on.
 */
public enum ApprovalStatus {
    PENDING,
    APPROVED,
    REJECTED,
    EXPIRED,
    EXECUTED,
    FAILED;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
