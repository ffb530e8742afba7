package io.agentgateway.decisioncore.core.approval;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalReviewed;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Approves or rejects a pending approval (the admin gate comes first). Only {@code pending} can be
 * reviewed, and only up to its {@code expiresAt} inclusive, measured at the command's acceptedAt.
 * A review that comes too late is refused, and it is what expires the approval: the state drops it
 * and {@link ApprovalExpired} is emitted, once. An approval that ends here (rejected, or approved
 * with no call for the gateway to run) leaves the state; an approved held call stays until it ran.
 */
final class ReviewApprovalHandler implements CommandHandler<ReviewApproval> {
    static final String NOT_FOUND = "Approval request not found";
    static final String OWN_REQUEST = "Four-eyes rule: the user who requested this action cannot approve it";
    static final int MAX_REASON_LENGTH = 2000;

    private final boolean fourEyes;

    ReviewApprovalHandler(boolean fourEyes) {
        this.fourEyes = fourEyes;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, ReviewApproval command) {
        if (!Validation.isUuid(command.approvalId())) {
            return CommandResult.invalid(state, "approvalId must be a lower-case UUID");
        }
        if (command.verdict() == null) {
            return CommandResult.invalid(state, "verdict must be approve or reject");
        }
        if (command.reason() != null && command.reason().length() > MAX_REASON_LENGTH) {
            return CommandResult.invalid(state, "reason must be at most " + MAX_REASON_LENGTH + " characters");
        }
        Optional<PendingApproval> found = state.approval(command.approvalId());
        if (found.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, NOT_FOUND);
        }
        PendingApproval approval = found.get();
        if (approval.status() != ApprovalStatus.PENDING) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT,
                    "Approval request is " + approval.status().wire() + ", not pending");
        }
        Instant at = envelope.acceptedAt();
        if (approval.expiredAt(at)) {
            return new CommandResult(state.withoutApproval(command.approvalId()), ReplyStatus.CONFLICT,
                    "Approval request expired at " + approval.expiresAt(), null,
                    List.of(new ApprovalExpired(command.approvalId(), approval.expiresAt())), List.of());
        }
        boolean approved = command.verdict() == ReviewVerdict.APPROVE;
        if (approved && fourEyes && requestedByReviewer(approval, envelope)) {
            return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, OWN_REQUEST);
        }
        ApprovalReviewed reviewed = new ApprovalReviewed(command.approvalId(), command.verdict(),
                envelope.actor().userId(), command.reason(), at, approval.tool(), approval.action(),
                approval.callDigest(), approved ? approval.heldCallKind() : null);
        WorkspaceState next = approved && approval.holdsCall()
                ? state.withApproval(command.approvalId(), approval.approved(state.approvalTtl()))
                : state.withoutApproval(command.approvalId());
        return CommandResult.accepted(next, reviewed);
    }

    /** Whether the approval's {@code requestedBy} names the reviewer, by user id or email (case-insensitive). */
    private static boolean requestedByReviewer(PendingApproval approval, CommandEnvelope envelope) {
        String requestedBy = approval.requestedBy();
        if (requestedBy == null || requestedBy.isBlank()) {
            return false;
        }
        String wanted = requestedBy.strip();
        return wanted.equalsIgnoreCase(envelope.actor().userId())
                || (envelope.actor().email() != null && wanted.equalsIgnoreCase(envelope.actor().email()));
    }
}
