package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.Uuids;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.ReviewApproval;
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
 * A review is a command like any other: the decision stream checks the role, the status and the
 * expiry in log order, and its answer is the response.
 *
 * <p>The stream forgets an approval once it ended (the read model keeps it), so for a review of an
 * ended approval it answers "not found"; the read model then tells 409 (it was reviewed, expired or
 * ran already) from 404 (no such approval in this workspace). The stream only says "not found" to an
 * admin, so this lookup reveals nothing to anybody else.
 */
@Component
public class ApprovalAdminHandler {
    static final int MAX_REASON_LENGTH = 2000;
    static final String REASON_MESSAGE = "reason must be a string of at most " + MAX_REASON_LENGTH + " characters";
    static final String NOT_FOUND = "Approval request not found";

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final ApprovalRequestRepository approvals;

    ApprovalAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies,
                         ApprovalRequestRepository approvals) {
        this.access = access;
        this.commands = commands;
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
            return bodies.readOptionalObject(request).flatMap(body -> {
                ReviewApproval command = new ReviewApproval(approvalId.toString(), verdict, reason(body));
                return commands.send(request, caller.user(), caller.workspaceId(), command)
                        .onErrorResume(ApiException.class, e -> e.status() == HttpStatus.NOT_FOUND
                                ? explainMissing(caller.workspaceId(), approvalId)
                                : Mono.error(e))
                        .then(JsonResponses.ok(new Reviewed(true, approvalId.toString(),
                                verdict == ReviewVerdict.APPROVE ? "approved" : "rejected")));
            });
        });
    }

    /**
     * Always an error: 409 when the approval exists but ended, else 404. A row still showing pending
     * means the review that ended it is not projected yet: it is no longer pending all the same. An
     * approval past its expiry is one the stream's sweep ended before the review was decided: "expired at".
     */
    private Mono<Reply> explainMissing(UUID workspaceId, UUID approvalId) {
        return Blocking.call(() -> approvals.statusOf(workspaceId, approvalId).orElse(null))
                .flatMap(seen -> Mono.<Reply>error(new ApiException(HttpStatus.CONFLICT, switch (seen.status()) {
                    case "pending" -> "Approval request is no longer pending";
                    case "expired" -> "Approval request expired at " + seen.expiresAt();
                    default -> "Approval request is " + seen.status() + ", not pending";
                })))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(NOT_FOUND)));
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
