package io.agentgateway.ingress.approval;

import io.agentgateway.ingress.auth.ApiKeyCredential;
import io.agentgateway.ingress.auth.ApiKeyVerifier;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.Uuids;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /functions/v1/mcp-gate/status/{approvalId} (spec 4.4): an active API key of any scope (401),
 * then the id (400), then the approval of the key's own workspace (404 for another's, so that ids
 * of other workspaces cannot be probed).
 */
@Component
public class ApprovalStatusHandler {
    static final String NOT_FOUND = "Approval request not found";

    private final ApiKeyVerifier keys;
    private final ApprovalRepository approvals;

    ApprovalStatusHandler(ApiKeyVerifier keys, ApprovalRepository approvals) {
        this.keys = keys;
        this.approvals = approvals;
    }

    public Mono<ServerResponse> status(ServerRequest request) {
        return Mono.defer(() -> keys.verify(ApiKeyCredential.from(request)))
                .flatMap(workspaceId -> {
                    UUID approvalId = Uuids.require(request.pathVariable("approvalId"), "approvalId");
                    return Blocking.call(() -> approvals.find(approvalId, workspaceId).orElse(null));
                })
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(NOT_FOUND)))
                .flatMap(JsonResponses::ok);
    }
}
