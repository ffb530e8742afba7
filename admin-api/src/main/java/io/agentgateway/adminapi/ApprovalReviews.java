package io.agentgateway.adminapi;

import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.command.ReviewApproval;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Approving or rejecting an approval, for every client of it (the admin API, the console): one {@code review_approval}
 * command through the decision stream, which checks the role (reviewer, admin or owner), the status, the expiry and
 * the four-eyes rule in log order; its reply, mapped to an {@link Outcome}.
 *
 * <p>The stream forgets an approval once it ended (the read model keeps it), so for a review of an ended approval it
 * answers "not found"; the read model then tells {@link Kind#ENDED} (it was reviewed, expired or ran already, with
 * why) from {@link Kind#NOT_FOUND} (no such approval in this workspace). The stream only says "not found" to someone
 * who may review, so this lookup reveals nothing to anybody else. No reply in time is the gateway's usual error
 * ({@code DecisionTimeoutException}, {@code DecisionServiceUnavailableException}): nothing is taken as decided.
 */
@Component
public class ApprovalReviews {
    public static final int MAX_REASON_LENGTH = ApprovalAdminHandler.MAX_REASON_LENGTH;

    /** What became of a review. */
    public enum Kind { REVIEWED, NOT_FOUND, ENDED, FORBIDDEN, INVALID }

    /**
     * @param status  the status the review moved the approval to ({@code approved}, {@code rejected}) when
     *                {@link Kind#REVIEWED}, else null
     * @param message why it was not reviewed (the stream's or the read model's words), else null
     */
    public record Outcome(Kind kind, String approvalId, String status, String message) {
        public boolean reviewed() {
            return kind == Kind.REVIEWED;
        }
    }

    private final CommandGateway gateway;
    private final ApprovalRequestRepository approvals;

    ApprovalReviews(CommandGateway gateway, ApprovalRequestRepository approvals) {
        this.gateway = gateway;
        this.approvals = approvals;
    }

    /**
     * @param reason the reviewer's comment (blank: none); at most {@value #MAX_REASON_LENGTH} characters (longer:
     *               {@link Kind#INVALID}, nothing sent)
     */
    public Mono<Outcome> review(AuthenticatedUser user, UUID workspaceId, UUID approvalId, ReviewVerdict verdict,
                                String reason, String correlationId) {
        Objects.requireNonNull(verdict, "verdict");
        String id = approvalId.toString();
        if (reason != null && reason.length() > MAX_REASON_LENGTH) {
            return Mono.just(new Outcome(Kind.INVALID, id, null, ApprovalAdminHandler.REASON_MESSAGE));
        }
        String comment = reason == null || reason.isBlank() ? null : reason;
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), new ReviewApproval(id, verdict, comment))
                .flatMap(reply -> {
                    ReplyStatus status = reply.status();
                    if (status == null) {
                        return Mono.error(new IllegalStateException("reply to command " + reply.commandId() + " has no status"));
                    }
                    if (status == ReplyStatus.OK) {
                        return Mono.just(new Outcome(Kind.REVIEWED, id,
                                verdict == ReviewVerdict.APPROVE ? "approved" : "rejected", null));
                    }
                    if (status == ReplyStatus.NOT_FOUND) {
                        return explainMissing(workspaceId, approvalId);
                    }
                    String text = reply.error() == null || reply.error().isBlank() ? String.valueOf(status) : reply.error();
                    return Mono.just(switch (status) {
                        case FORBIDDEN, UNAUTHORIZED -> new Outcome(Kind.FORBIDDEN, id, null, text);
                        case CONFLICT -> new Outcome(Kind.ENDED, id, null, text);
                        default -> new Outcome(Kind.INVALID, id, null, text);
                    });
                });
    }

    /**
     * {@link Kind#ENDED} when the approval exists but ended, else {@link Kind#NOT_FOUND}. A row still showing pending
     * means the review that ended it is not projected yet: it is no longer pending all the same. An approval past its
     * expiry is one the stream's sweep ended before the review was decided: "expired at".
     */
    private Mono<Outcome> explainMissing(UUID workspaceId, UUID approvalId) {
        String id = approvalId.toString();
        return Blocking.call(() -> approvals.statusOf(workspaceId, approvalId).orElse(null))
                .map(seen -> new Outcome(Kind.ENDED, id, null, switch (seen.status()) {
                    case "pending" -> "Approval request is no longer pending";
                    case "expired" -> "Approval request expired at " + seen.expiresAt();
                    default -> "Approval request is " + seen.status() + ", not pending";
                }))
                .defaultIfEmpty(new Outcome(Kind.NOT_FOUND, id, null, ApprovalAdminHandler.NOT_FOUND));
    }
}
