package io.agentgateway.agentapi.status;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.Reply;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /functions/v1/mcp-gate/status/{approvalId} (spec 4.4): an API key of any scope of its workspace,
 * checked by the decision stream in log order ({@code check_access}, 401), then the id (400), then the
 * approval of the key's own workspace (404 for another's, so that ids of other workspaces cannot be
 * probed). The read model's row when it has one; before the projector wrote it, what the stream holds of
 * the open approval (the same {@code check_access} asked for it): an id the gateway just returned is
 * never "not found".
 */
@Component
public class ApprovalStatusHandler {
    static final String NOT_FOUND = "Approval request not found";

    private final ConnectionAccess access;
    private final ApprovalRepository approvals;

    ApprovalStatusHandler(ConnectionAccess access, ApprovalRepository approvals) {
        this.access = access;
        this.approvals = approvals;
    }

    public Mono<ServerResponse> status(ServerRequest request) {
        return Mono.defer(() -> {
            ApiKeyCredential key = ApiKeyCredential.from(request);
            String rawId = request.pathVariable("approvalId");
            // a malformed id is not looked up, but the key is still checked first (401 before 400)
            String lookedUp = Uuids.canonical(rawId).orElse(null);
            return access.lookUpApproval(key.workspaceId(), CorrelationIds.of(request), Actor.apiKey(key.keyHash(), null), lookedUp)
                    .flatMap(reply -> {
                        UUID approvalId = Uuids.require(rawId, "approvalId");
                        return Blocking.call(() -> approvals.find(approvalId, key.workspaceId())
                                .orElseGet(() -> fromStream(reply)));
                    });
        })
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(NOT_FOUND)))
                .flatMap(JsonResponses::ok);
    }

    /** The approval as the stream holds it while it is open; null (404) when it does not hold it either. */
    private static ApprovalView fromStream(Reply reply) {
        ApprovalSnapshot open = reply.approval();
        if (open == null) {
            return null;
        }
        return new ApprovalView(true, open.approvalId(), open.status(), null, null, null, null, open.expiresAt(),
                open.tool() == null ? null : open.tool().wire(), open.action(), null, null, null, null, null);
    }
}
