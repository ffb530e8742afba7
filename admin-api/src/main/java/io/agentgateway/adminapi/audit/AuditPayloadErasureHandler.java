package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.command.EraseAuditPayload;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * POST /admin/v1/workspaces/{workspaceId}/audit-log/{auditLogId}/erase-payload [{"reason": "..."}]: erases the stored
 * payload of one audit entry ({@link AuditLog#erasePayload}). The admin role is checked first (a non-admin learns
 * nothing), then that the entry is the workspace's (404 otherwise).
 */
@Component
public class AuditPayloadErasureHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final AuditLog auditLog;

    AuditPayloadErasureHandler(AdminAccess access, JsonBodyReader bodies, AuditLog auditLog) {
        this.access = access;
        this.bodies = bodies;
        this.auditLog = auditLog;
    }

    record Erased(boolean ok, String auditLogId, boolean erased) {}

    public Mono<ServerResponse> erase(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID auditLogId = Uuids.require(request.pathVariable("auditLogId"), "auditLogId");
            return bodies.readOptionalObject(request).flatMap(body -> {
                String reason = reason(body);
                return access.requireAdmin(caller)
                        .flatMap(admin -> auditLog.erasePayload(admin.user(), admin.workspaceId(), auditLogId, reason,
                                CorrelationIds.of(request)))
                        .then(JsonResponses.ok(new Erased(true, auditLogId.toString(), true)));
            });
        });
    }

    /** The optional reason; blank counts as none. */
    private static String reason(tools.jackson.databind.node.ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("reason"), "");
        String reason = JsonFields.optionalString(body, "reason");
        if (reason != null && reason.length() > EraseAuditPayload.MAX_REASON_LENGTH) {
            throw ApiException.badRequest("reason must be a string of at most " + EraseAuditPayload.MAX_REASON_LENGTH
                    + " characters");
        }
        return reason == null || reason.isBlank() ? null : reason;
    }
}
