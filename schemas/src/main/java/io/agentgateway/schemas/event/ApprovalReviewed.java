package io.agentgateway.schemas.event;

import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.Tool;
import java.time.Instant;

/**
 * A pending approval was approved or rejected. {@code tool}, {@code action} and {@code callDigest}
 * come from the decision stream's own record of the approval: the executor checks the held call it
 * is about to run against them. {@code heldCallKind} is set when an approved request holds a call for
 * the gateway to run; without one (evaluate-action approvals) there is nothing to run.
 *
 * @param reviewedBy the reviewer's user id
 * @param reason     the reviewer's comment, or null
 */
public record ApprovalReviewed(
        String approvalId,
        ReviewVerdict verdict,
        String reviewedBy,
        String reason,
        Instant reviewedAt,
        Tool tool,
        String action,
        String callDigest,
        HeldCallKind heldCallKind) implements DomainEvent {}
