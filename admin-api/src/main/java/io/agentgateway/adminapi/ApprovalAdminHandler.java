package io.agentgateway.adminapi;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.ReviewVerdict;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * /admin/v1/workspaces/{workspaceId}/approvals: the pending list for reviewers, and approve / reject.
 * A review is a command like any other, sent by {@link ApprovalReviews} (which the console uses too): the decision
 * stream checks the role, the status, the expiry and the four-eyes rule in log order, and its answer is the
 * response: 409 when the approval ended (reviewed, expired or ran already), 404 when this workspace has no such
 * approval, 403 with the stream's reason.
 */
@Component
public class ApprovalAdminHandler {
    static final int MAX_REASON_LENGTH = 2000;
    static final String REASON_MESSAGE = "reason must be a string of at most " + MAX_REASON_LENGTH + " characters";
    static final String NOT_FOUND = "Approval request not found";

    private final AdminAccess access;
    private final ApprovalReviews reviews;
    private final JsonBodyReader bodies;
    private final ApprovalRequestRepository approvals;

    ApprovalAdminHandler(AdminAccess access, ApprovalReviews reviews, JsonBodyReader bodies,
                         ApprovalRequestRepository approvals) {
        this.access = access;
        this.reviews = reviews;
        this.bodies = bodies;
        this.approvals = approvals;
    }

    /** {@code {ok, id, status}}: the status the review moved the approval to. */
    record Reviewed(boolean ok, String id, String status) {}

    public Mono<ServerResponse> approve(ServerRequest request) {
        return review(request, ReviewVerdict.APPROVE);
    }

    public Mono<ServerResponse> reject(ServerRequest request) {
        return review(request, ReviewVerdict.REJECT);
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        // the filters are validated (400) before the membership lookup (403), as for the audit log
        return access.caller(request).flatMap(caller -> {
            ApprovalListQuery query = ApprovalListQuery.from(request);
            return access.requireAdmin(caller).flatMap(admin -> Blocking.call(() -> approvals.list(admin.workspaceId(), query)));
        }).flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    /**
     * {@code GET …/approvals/{approvalId}}: one approval as the list shows it, with what its held call will do
     * ({@code callView}) and the digest that binds it. 404 for an unknown id and for another workspace's.
     */
    public Mono<ServerResponse> get(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID approvalId = Uuids.require(request.pathVariable("approvalId"), "approvalId");
            return access.requireAdmin(caller).flatMap(admin -> Blocking.call(() -> approvals.find(admin.workspaceId(), approvalId)
                    .orElseThrow(() -> ApiException.notFound(NOT_FOUND))));
        }).flatMap(item -> {
            // {ok, ...the fields of a list item}
            ObjectNode body = IngressJson.RESPONSES.createObjectNode().put("ok", true);
            body.setAll((ObjectNode) IngressJson.RESPONSES.valueToTree(item));
            return JsonResponses.ok(body);
        });
    }

    private Mono<ServerResponse> review(ServerRequest request, ReviewVerdict verdict) {
        return access.caller(request).flatMap(caller -> {
            UUID approvalId = Uuids.require(request.pathVariable("approvalId"), "approvalId");
            return bodies.readOptionalObject(request).flatMap(body -> reviews.review(caller.user(), caller.workspaceId(),
                            approvalId, verdict, reason(body), CorrelationIds.of(request)))
                    .flatMap(outcome -> switch (outcome.kind()) {
                        case REVIEWED -> JsonResponses.ok(new Reviewed(true, outcome.approvalId(), outcome.status()));
                        case NOT_FOUND -> Mono.error(ApiException.notFound(NOT_FOUND));
                        case ENDED -> Mono.error(new ApiException(HttpStatus.CONFLICT, outcome.message()));
                        case FORBIDDEN -> Mono.error(ApiException.forbidden(outcome.message()));
                        case INVALID -> Mono.error(ApiException.badRequest(outcome.message()));
                    });
        });
    }

    /** The optional reviewer's comment; blank counts as none. */
    private static String reason(ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("reason"), "");
        String reason;
        try {
            reason = JsonFields.optionalString(body, "reason");
        } catch (ApiException notAString) {
            throw ApiException.badRequest(REASON_MESSAGE);
        }
        if (reason != null && reason.length() > MAX_REASON_LENGTH) {
            throw ApiException.badRequest(REASON_MESSAGE);
        }
        return reason == null || reason.isBlank() ? null : reason;
    }
}
