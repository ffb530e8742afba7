package io.agentgateway.decisioncore.core.approval;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.WithdrawApproval;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The API key that asked for a call withdraws its own pending approval (an MCP client's {@code tasks/cancel}), in log
 * order with its review: a withdrawal accepted before the approval is decided ends it {@code withdrawn}, and then no
 * review can approve it; one accepted after is refused and the call runs as reviewed. The actor must be a key of the
 * workspace that may act (any scope: it only ends its own request) and the very key that opened the approval; any
 * other key, and an id the workspace does not hold, get the same "not found" (nothing learnt of another key's
 * approvals). As for a review, a request past its {@code expiresAt} is expired instead ({@link ApprovalExpired}, once).
 */
final class WithdrawApprovalHandler implements CommandHandler<WithdrawApproval> {
    static final int MAX_REASON_LENGTH = ReviewApprovalHandler.MAX_REASON_LENGTH;

    private final CommandAuthorizer authorizer;

    WithdrawApprovalHandler(CommandAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, WithdrawApproval command) {
        Instant at = envelope.acceptedAt();
        if (authorizer.anyScopeApiKey(state, envelope.actor(), at).isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        }
        if (!Validation.isUuid(command.approvalId())) {
            return CommandResult.invalid(state, "approvalId must be a lower-case UUID");
        }
        if (command.reason() != null && command.reason().length() > MAX_REASON_LENGTH) {
            return CommandResult.invalid(state, "reason must be at most " + MAX_REASON_LENGTH + " characters");
        }
        Optional<PendingApproval> found = state.approval(command.approvalId())
                .filter(approval -> approval.openedByKey(envelope.actor().apiKeyHash()));
        if (found.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, ReviewApprovalHandler.NOT_FOUND);
        }
        PendingApproval approval = found.get();
        if (approval.status() != ApprovalStatus.PENDING) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT,
                    "Approval request is " + approval.status().wire() + ", not pending");
        }
        if (approval.expiredAt(at)) {
            return new CommandResult(state.withoutApproval(command.approvalId()), ReplyStatus.CONFLICT,
                    "Approval request expired at " + approval.expiresAt(), null,
                    List.of(new ApprovalExpired(command.approvalId(), approval.expiresAt())), List.of());
        }
        return CommandResult.accepted(state.withoutApproval(command.approvalId()),
                new ApprovalWithdrawn(command.approvalId(), command.reason(), at));
    }
}
