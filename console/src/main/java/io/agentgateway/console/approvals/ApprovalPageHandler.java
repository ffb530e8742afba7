package io.agentgateway.console.approvals;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.ApprovalRequestRepository;
import io.agentgateway.adminapi.ApprovalReviews;
import io.agentgateway.adminapi.AuditLogQuery;
import io.agentgateway.adminapi.AuditLogRepository;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.ReviewVerdict;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * One approval's page (the link every approval notification carries): what is asked and exactly what will run, the
 * decision form, and the timeline of its correlation id (requested, reviewed, claimed, executed or failed with the
 * result, cancelled by the kill switch, every evaluation and audit row). Approve and reject go through
 * {@link ApprovalReviews}, as the admin API's do: the decision stream decides in log order; an approval that ended or
 * expired cannot be acted on and the page says why.
 */
@Component
public class ApprovalPageHandler {
    public static final String CONFIRM_FIELD = "confirmCritical";
    static final Duration PROJECTION_WAIT = Duration.ofSeconds(5);

    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final ApprovalQueries approvals;
    private final ApprovalRequestRepository lifecycle;
    private final AuditLogRepository audit;
    private final ApprovalReviews reviews;

    ApprovalPageHandler(ConsoleRequests requests, ConsolePages pages, ApprovalQueries approvals,
                        ApprovalRequestRepository lifecycle, AuditLogRepository audit, ApprovalReviews reviews) {
        this.requests = requests;
        this.pages = pages;
        this.approvals = approvals;
        this.lifecycle = lifecycle;
        this.audit = audit;
        this.reviews = reviews;
    }

    /** A step of the timeline. */
    public record Step(Instant at, String what, String who, String detail, String kind) {}

    /** GET /approvals/{workspaceId}/{approvalId} */
    public Mono<ServerResponse> page(ServerRequest request) {
        return requests.reader(request)
                .flatMap(reader -> {
                    UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
                    UUID approvalId = ConsoleRequests.uuid(request.pathVariable("approvalId"));
                    Membership member = reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
                    return Blocking.call(() -> model(reader, member, approvalId, request));
                })
                .flatMap(model -> pages.page("approval", model))
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** POST /approvals/{workspaceId}/{approvalId}/approve and …/reject (reason required to reject). */
    public Mono<ServerResponse> review(ServerRequest request, ReviewVerdict verdict) {
        return requests.submission(request).flatMap(submitted -> {
            UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
            UUID approvalId = ConsoleRequests.uuid(request.pathVariable("approvalId"));
            Reader reader = submitted.reader();
            Membership member = reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
            if (!member.mayReview()) {
                throw ConsoleException.forbidden("Your role in this workspace (" + member.role().wire()
                        + ") may read approvals but not decide them.");
            }
            String reason = submitted.field("reason");
            String trimmed = reason == null ? "" : reason.strip();
            if (verdict == ReviewVerdict.REJECT && trimmed.isEmpty()) {
                throw ConsoleException.badRequest("A rejection needs a reason: the agent is shown it.");
            }
            if (trimmed.length() > ApprovalReviews.MAX_REASON_LENGTH) {
                throw ConsoleException.badRequest("The reason is longer than " + ApprovalReviews.MAX_REASON_LENGTH + " characters.");
            }
            return Blocking.call(() -> approvals.one(workspaceId, approvalId).orElseThrow(ConsoleException::notFound))
                    .flatMap(approval -> {
                        if (verdict == ReviewVerdict.APPROVE && approval.critical()
                                && !"yes".equals(submitted.field(CONFIRM_FIELD))) {
                            throw ConsoleException.badRequest("This is a critical action: tick the confirmation box to approve it.");
                        }
                        return reviews.review(reader.session().user(), workspaceId, approvalId, verdict, trimmed,
                                CorrelationIds.of(request));
                    });
        }).flatMap(outcome -> switch (outcome.kind()) {
            // decided by the stream; the page it goes to reads the read model: wait (bounded) until that shows it
            case REVIEWED -> projected(ConsoleRequests.uuid(request.pathVariable("workspaceId")),
                    ConsoleRequests.uuid(request.pathVariable("approvalId")))
                    .then(ServerResponse.seeOther(URI.create(request.path().replaceAll("/(approve|reject)$", "")
                            + "?done=" + outcome.status())).build());
            case NOT_FOUND -> Mono.error(ConsoleException.notFound());
            case ENDED -> Mono.error(new ConsoleException(HttpStatus.CONFLICT, outcome.message() + ": it can no longer be acted on."));
            case FORBIDDEN -> Mono.error(ConsoleException.forbidden(outcome.message()));
            case INVALID -> Mono.error(ConsoleException.badRequest(outcome.message()));
        }).onErrorResume(e -> requests.failure(request, e));
    }

    /** Completes once the read model shows the approval no longer pending, or after {@link #PROJECTION_WAIT}. */
    private Mono<Void> projected(UUID workspaceId, UUID approvalId) {
        return Blocking.call(() -> lifecycle.find(workspaceId, approvalId).map(ApprovalRequestRepository.ApprovalItem::status)
                        .orElse("pending"))
                .filter(status -> !"pending".equals(status))
                .repeatWhenEmpty(attempts -> attempts.delayElements(Duration.ofMillis(20)))
                .timeout(PROJECTION_WAIT, Mono.just("pending"))
                .then();
    }

    private Map<String, Object> model(Reader reader, Membership member, UUID approvalId, ServerRequest request) {
        UUID workspaceId = member.workspaceId();
        PendingApproval approval = approvals.one(workspaceId, approvalId).orElseThrow(ConsoleException::notFound);
        ApprovalRequestRepository.ApprovalItem item = lifecycle.find(workspaceId, approvalId).orElseThrow(ConsoleException::notFound);
        Map<String, Object> model = new HashMap<>();
        model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
        model.put("workspaces", reader.memberships());
        model.put("member", member);
        model.put("approval", approval);
        model.put("item", item);
        model.put("now", Instant.now());
        model.put("pending", "pending".equals(item.status()));
        model.put("whyNot", whyNotActionable(item));
        model.put("timeline", timeline(workspaceId, approvalId, approval, item));
        model.put("done", request.queryParam("done").filter(d -> d.equals("approved") || d.equals("rejected")).orElse(null));
        model.put("section", "inbox");
        return model;
    }

    /** Why an approval can no longer be acted on, or null while it can. */
    static String whyNotActionable(ApprovalRequestRepository.ApprovalItem item) {
        return switch (item.status()) {
            case "pending" -> null;
            case "expired" -> "It expired at " + item.expiresAt() + " without a decision.";
            case "cancelled" -> "It was cancelled" + (item.cancelReason() == null ? "." : ": " + item.cancelReason());
            case "rejected" -> "It was already rejected by " + item.reviewedBy() + ".";
            default -> "It was already approved by " + item.reviewedBy() + " (now " + item.status() + ").";
        };
    }

    private List<Step> timeline(UUID workspaceId, UUID approvalId, PendingApproval approval,
                                ApprovalRequestRepository.ApprovalItem item) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(item.createdAt(), "Requested", approval.agentName() != null ? approval.agentName() : approval.agentId(),
                approval.reason(), "requested"));
        if (item.reviewedAt() != null) {
            boolean rejected = "rejected".equals(item.status());
            steps.add(new Step(item.reviewedAt(), rejected ? "Rejected" : "Approved", item.reviewedBy(), item.reviewReason(),
                    rejected ? "rejected" : "approved"));
        }
        approvals.claim(workspaceId, approvalId).ifPresent(claim ->
                steps.add(new Step(claim.claimedAt(), "Claimed for execution", claim.claimedBy(), null, "claimed")));
        if (item.executedAt() != null) {
            boolean failed = "failed".equals(item.status());
            steps.add(new Step(item.executedAt(), failed ? "Failed" : "Executed", "gateway",
                    item.executionResult() == null ? null : item.executionResult().toString(), failed ? "failed" : "executed"));
        }
        if (item.cancelledAt() != null) {
            steps.add(new Step(item.cancelledAt(), "Cancelled", "gateway", item.cancelReason(), "cancelled"));
        }
        if ("expired".equals(item.status())) {
            steps.add(new Step(item.expiresAt(), "Expired", null, "No decision before its expiry.", "expired"));
        }
        // the correlation id's whole lifecycle: every evaluation and audit row that carries it
        AuditLogQuery byCorrelation = new AuditLogQuery(item.correlationId(), null, null, null, null, null,
                AuditLogQuery.MAX_LIMIT, null, null, null, null, null);
        for (AuditLogRepository.AuditEntry row : audit.page(workspaceId, byCorrelation).items()) {
            steps.add(new Step(row.occurredAt(), "Audit: " + row.kind().replace('_', ' ')
                    + (row.decision() == null ? "" : " → " + row.decision()), row.actorUserId() != null ? row.actorUserId()
                    : row.agentName() != null ? row.agentName() : row.agentId(),
                    row.action() + (row.reason() == null ? "" : " · " + row.reason()), "audit"));
        }
        steps.sort(Comparator.comparing(Step::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return steps;
    }
}
