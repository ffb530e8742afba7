package io.agentgateway.adminapi.approvals;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.ReviewVerdict;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * /admin/v1/workspaces/{workspaceId}/approvals: the list and one approval for admins, and approve / reject: the HTTP
 * side of {@link Approvals} (which the console uses too). A review's answer is the stream's: 409 when the approval
 * ended (reviewed, expired or ran already), 404 when this workspace has no such approval, 403 with the stream's reason.
 */
@Component
public class ApprovalAdminHandler {
    private final AdminAccess access;
    private final Approvals approvals;
    private final JsonBodyReader bodies;

    ApprovalAdminHandler(AdminAccess access, Approvals approvals, JsonBodyReader bodies) {
        this.access = access;
        this.approvals = approvals;
        this.bodies = bodies;
    }

    /** {@code {ok, id, status}}: the status the review moved the approval to. */
    record ReviewedView(boolean ok, String id, String status) {}

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
            return access.requireAdmin(caller).flatMap(admin -> approvals.list(admin.workspaceId(), query));
        }).flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    /**
     * {@code GET …/approvals/{approvalId}}: one approval as the list shows it, with what its held call will do
     * ({@code callView}) and the digest that binds it. 404 for an unknown id and for another workspace's.
     */
    public Mono<ServerResponse> get(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID approvalId = Uuids.require(request.pathVariable("approvalId"), "approvalId");
            return access.requireAdmin(caller).flatMap(admin -> approvals.find(admin.workspaceId(), approvalId));
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
            return bodies.readOptionalObject(request)
                    .flatMap(body -> approvals.review(caller.user(), caller.workspaceId(), approvalId, verdict, reason(body),
                            CorrelationIds.of(request)))
                    .flatMap(reviewed -> JsonResponses.ok(new ReviewedView(true, reviewed.approvalId(), reviewed.status())));
        });
    }

    /** The optional reviewer's comment; blank counts as none. */
    private static String reason(ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("reason"), "");
        String reason;
        try {
            reason = JsonFields.optionalString(body, "reason");
        } catch (ApiException notAString) {
            throw ApiException.badRequest(Approvals.REASON_MESSAGE);
        }
        if (reason != null && reason.length() > Approvals.MAX_REASON_LENGTH) {
            throw ApiException.badRequest(Approvals.REASON_MESSAGE);
        }
        return reason == null || reason.isBlank() ? null : reason;
    }
}
