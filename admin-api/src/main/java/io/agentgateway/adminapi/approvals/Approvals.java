package io.agentgateway.adminapi.approvals;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.command.ReviewApproval;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * A workspace's approvals, for every client of them (the admin API, the console): the list and one approval as the
 * read model shows them, and a review (approve or reject): one {@code review_approval} command through the decision
 * stream, which checks the role (reviewer, admin or owner), the status, the expiry and the four-eyes rule in log order.
 *
 * <p>A review answers {@link Reviewed}, or its refusal as an {@link ApiException}: 404 {@value #NOT_FOUND} (no such
 * approval in this workspace), 409 when it ended (reviewed, expired or ran already, with why), 403 with the stream's
 * reason, 400 for a bad reason. The stream forgets an approval once it ended (the read model keeps it), so for a
 * review of an ended approval it answers "not found"; the read model then tells the two apart. The stream only says
 * "not found" to someone who may review, so this lookup reveals nothing to anybody else. No reply in time is the
 * gateway's usual error ({@code DecisionTimeoutException}, {@code DecisionServiceUnavailableException}): nothing is
 * taken as decided.
 */
@Service
public class Approvals {
    public static final int MAX_REASON_LENGTH = 2000;
    public static final String REASON_MESSAGE = "reason must be a string of at most " + MAX_REASON_LENGTH + " characters";
    public static final String NOT_FOUND = "Approval request not found";

    /** A review the stream applied: the status it moved the approval to ({@code approved}, {@code rejected}). */
    public record Reviewed(String approvalId, String status) {}

    private final CommandGateway gateway;
    private final ApprovalRequestRepository approvals;

    Approvals(CommandGateway gateway, ApprovalRequestRepository approvals) {
        this.gateway = gateway;
        this.approvals = approvals;
    }

    /** Newest first, filtered as the query says. */
    public Mono<List<ApprovalItem>> list(UUID workspaceId, ApprovalListQuery query) {
        return Blocking.call(() -> approvals.list(workspaceId, query));
    }

    /** One approval of the workspace; 404 {@value #NOT_FOUND} for an unknown id and for another workspace's. */
    public Mono<ApprovalItem> find(UUID workspaceId, UUID approvalId) {
        return Blocking.call(() -> approvals.find(workspaceId, approvalId).orElseThrow(() -> ApiException.notFound(NOT_FOUND)));
    }

    /**
     * @param reason the reviewer's comment (blank: none); at most {@value #MAX_REASON_LENGTH} characters (longer: 400,
     *               nothing sent)
     */
    public Mono<Reviewed> review(AuthenticatedUser user, UUID workspaceId, UUID approvalId, ReviewVerdict verdict,
                                 String reason, String correlationId) {
        Objects.requireNonNull(verdict, "verdict");
        String id = approvalId.toString();
        if (reason != null && reason.length() > MAX_REASON_LENGTH) {
            return Mono.error(ApiException.badRequest(REASON_MESSAGE));
        }
        String comment = reason == null || reason.isBlank() ? null : reason;
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), new ReviewApproval(id, verdict, comment))
                .flatMap(reply -> {
                    ReplyStatus status = reply.status();
                    if (status == null) {
                        return Mono.error(new IllegalStateException("reply to command " + reply.commandId() + " has no status"));
                    }
                    if (status == ReplyStatus.OK) {
                        return Mono.just(new Reviewed(id, verdict == ReviewVerdict.APPROVE ? "approved" : "rejected"));
                    }
                    if (status == ReplyStatus.NOT_FOUND) {
                        return explainMissing(workspaceId, approvalId);
                    }
                    String text = reply.error() == null || reply.error().isBlank() ? String.valueOf(status) : reply.error();
                    return Mono.error(switch (status) {
                        case FORBIDDEN, UNAUTHORIZED -> ApiException.forbidden(text);
                        case CONFLICT -> new ApiException(HttpStatus.CONFLICT, text);
                        default -> ApiException.badRequest(text);
                    });
                });
    }

    /**
     * 409 when the approval exists but ended, else 404. A row still showing pending means the review that ended it is
     * not projected yet: it is no longer pending all the same. An approval past its expiry is one the stream's sweep
     * ended before the review was decided: "expired at".
     */
    private Mono<Reviewed> explainMissing(UUID workspaceId, UUID approvalId) {
        return Blocking.call(() -> approvals.statusOf(workspaceId, approvalId).orElse(null))
                .flatMap(seen -> Mono.<Reviewed>error(new ApiException(HttpStatus.CONFLICT, switch (seen.status()) {
                    case "pending" -> "Approval request is no longer pending";
                    case "expired" -> "Approval request expired at " + seen.expiresAt();
                    default -> "Approval request is " + seen.status() + ", not pending";
                })))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(NOT_FOUND)));
    }
}
