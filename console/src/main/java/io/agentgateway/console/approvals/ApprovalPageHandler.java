package io.agentgateway.console.approvals;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.approvals.ApprovalItem;
import io.agentgateway.adminapi.approvals.Approvals;
import io.agentgateway.adminapi.audit.AuditEntry;
import io.agentgateway.adminapi.audit.AuditLog;
import io.agentgateway.adminapi.audit.AuditLogQuery;
import io.agentgateway.httpedge.web.ApiException;
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
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * One approval's page (the link every approval notification carries): what is asked and exactly what will run, the
 * decision form, and the timeline of its correlation id (requested, reviewed, claimed, executed or failed with the
 * result, cancelled by the kill switch, every evaluation and audit row). Approve and reject go through the admin API's
 * {@link Approvals}, as its endpoints do: the decision stream decides in log order; an approval that ended or
 * expired cannot be acted on and the page says why.
 */
@Component
public class ApprovalPageHandler {
    public static final String CONFIRM_FIELD = "confirmCritical";
    static final Duration PROJECTION_WAIT = Duration.ofSeconds(5);

    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final ApprovalQueries queries;
    private final Approvals approvals;
    private final AuditLog auditLog;

    ApprovalPageHandler(ConsoleRequests requests, ConsolePages pages, ApprovalQueries queries, Approvals approvals,
                        AuditLog auditLog) {
        this.requests = requests;
        this.pages = pages;
        this.queries = queries;
        this.approvals = approvals;
        this.auditLog = auditLog;
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
                    return model(reader, member, approvalId, request);
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
            if (trimmed.length() > Approvals.MAX_REASON_LENGTH) {
                throw ConsoleException.badRequest("The reason is longer than " + Approvals.MAX_REASON_LENGTH + " characters.");
            }
            return Blocking.call(() -> queries.one(workspaceId, approvalId).orElseThrow(ConsoleException::notFound))
                    .flatMap(approval -> {
                        if (verdict == ReviewVerdict.APPROVE && approval.critical()
                                && !"yes".equals(submitted.field(CONFIRM_FIELD))) {
                            throw ConsoleException.badRequest("This is a critical action: tick the confirmation box to approve it.");
                        }
                        return approvals.review(reader.session().user(), workspaceId, approvalId, verdict, trimmed,
                                        CorrelationIds.of(request))
                                .onErrorMap(ApiException.class, ApprovalPageHandler::refused)
                                // decided by the stream; the page it goes to reads the read model: wait (bounded) until that shows it
                                .flatMap(reviewed -> projected(workspaceId, approvalId)
                                        .then(ServerResponse.seeOther(URI.create(request.path().replaceAll("/(approve|reject)$", "")
                                                + "?done=" + reviewed.status())).build()));
                    });
        }).onErrorResume(e -> requests.failure(request, e));
    }

    /** A review the stream refused, in the console's words: no such approval (404), or one that ended (409, with why). */
    private static RuntimeException refused(ApiException refusal) {
        if (refusal.status() == HttpStatus.NOT_FOUND) {
            return ConsoleException.notFound();
        }
        if (refusal.status() == HttpStatus.CONFLICT) {
            return new ConsoleException(HttpStatus.CONFLICT, refusal.getMessage() + ": it can no longer be acted on.");
        }
        return refusal;
    }

    /** Completes once the read model shows the approval no longer pending, or after {@link #PROJECTION_WAIT}. */
    private Mono<Void> projected(UUID workspaceId, UUID approvalId) {
        return approvals.find(workspaceId, approvalId).map(ApprovalItem::status)
                .onErrorResume(ApiException.class, notYet -> Mono.just("pending"))
                .filter(status -> !"pending".equals(status))
                .repeatWhenEmpty(attempts -> attempts.delayElements(Duration.ofMillis(20)))
                .timeout(PROJECTION_WAIT, Mono.just("pending"))
                .then();
    }

    private Mono<Map<String, Object>> model(Reader reader, Membership member, UUID approvalId, ServerRequest request) {
        UUID workspaceId = member.workspaceId();
        return Mono.zip(Blocking.call(() -> queries.one(workspaceId, approvalId).orElseThrow(ConsoleException::notFound)),
                        approvals.find(workspaceId, approvalId).onErrorMap(ConsoleException::notFoundOf))
                .flatMap(found -> timeline(workspaceId, approvalId, found.getT1(), found.getT2())
                        .map(timeline -> model(reader, member, found.getT1(), found.getT2(), timeline, request)));
    }

    private static Map<String, Object> model(Reader reader, Membership member, PendingApproval approval, ApprovalItem item,
                                             List<Step> timeline, ServerRequest request) {
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
        model.put("timeline", timeline);
        model.put("done", request.queryParam("done").filter(d -> d.equals("approved") || d.equals("rejected")).orElse(null));
        model.put("section", "inbox");
        return model;
    }

    /** Why an approval can no longer be acted on, or null while it can. */
    static String whyNotActionable(ApprovalItem item) {
        return switch (item.status()) {
            case "pending" -> null;
            case "expired" -> "It expired at " + item.expiresAt() + " without a decision.";
            case "cancelled" -> "It was cancelled" + (item.cancelReason() == null ? "." : ": " + item.cancelReason());
            case "rejected" -> "It was already rejected by " + item.reviewedBy() + ".";
            default -> "It was already approved by " + item.reviewedBy() + " (now " + item.status() + ").";
        };
    }

    private Mono<List<Step>> timeline(UUID workspaceId, UUID approvalId, PendingApproval approval, ApprovalItem item) {
        // the correlation id's whole lifecycle: every evaluation and audit row that carries it
        AuditLogQuery byCorrelation = new AuditLogQuery(item.correlationId(), null, null, null, null, null,
                AuditLogQuery.MAX_LIMIT, null, null, null, null, null);
        return Mono.zip(Blocking.call(() -> queries.claim(workspaceId, approvalId)), auditLog.page(workspaceId, byCorrelation))
                .map(found -> timeline(approval, item, found.getT1(), found.getT2().items()));
    }

    private static List<Step> timeline(PendingApproval approval, ApprovalItem item, Optional<ApprovalQueries.Claim> claim,
                                       List<AuditEntry> rows) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(item.createdAt(), "Requested", approval.agentName() != null ? approval.agentName() : approval.agentId(),
                approval.reason(), "requested"));
        if (item.reviewedAt() != null) {
            boolean rejected = "rejected".equals(item.status());
            steps.add(new Step(item.reviewedAt(), rejected ? "Rejected" : "Approved", item.reviewedBy(), item.reviewReason(),
                    rejected ? "rejected" : "approved"));
        }
        claim.ifPresent(claimed ->
                steps.add(new Step(claimed.claimedAt(), "Claimed for execution", claimed.claimedBy(), null, "claimed")));
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
        for (AuditEntry row : rows) {
            steps.add(new Step(row.occurredAt(), "Audit: " + row.kind().replace('_', ' ')
                    + (row.decision() == null ? "" : " → " + row.decision()), row.actorUserId() != null ? row.actorUserId()
                    : row.agentName() != null ? row.agentName() : row.agentId(),
                    row.action() + (row.reason() == null ? "" : " · " + row.reason()), "audit"));
        }
        steps.sort(Comparator.comparing(Step::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return steps;
    }
}
