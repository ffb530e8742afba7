package io.agentgateway.adminapi;

import io.agentgateway.adminapi.evidence.EvidenceLogReader;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.command.EraseAuditPayload;
import java.sql.Connection;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * POST /admin/v1/workspaces/{workspaceId}/audit-log/{auditLogId}/erase-payload [{"reason": "..."}]: erases the stored
 * payload of one audit entry (a privacy request). The admin role is checked first (a non-admin learns nothing), then
 * that the entry is the workspace's (404 otherwise: the stream cannot tell, it keeps no audit rows); the erasure is a
 * command like any other, decided in log order and sealed into the Merkle log as an entry of its own. The row keeps the
 * payload's digests, so the log still verifies.
 */
@Component
public class AuditPayloadErasureHandler {
    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final DataSource dataSource;

    AuditPayloadErasureHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies, DataSource dataSource) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.dataSource = dataSource;
    }

    record Erased(boolean ok, String auditLogId, boolean erased) {}

    public Mono<ServerResponse> erase(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID auditLogId = Uuids.require(request.pathVariable("auditLogId"), "auditLogId");
            return bodies.readOptionalObject(request).flatMap(body -> {
                JsonFields.onlyKnownFields(body, Set.of("reason"), "");
                String reason = JsonFields.optionalString(body, "reason");
                if (reason != null && reason.length() > EraseAuditPayload.MAX_REASON_LENGTH) {
                    throw ApiException.badRequest("reason must be a string of at most " + EraseAuditPayload.MAX_REASON_LENGTH
                            + " characters");
                }
                String given = reason == null || reason.isBlank() ? null : reason;
                return access.requireAdmin(caller)
                        .flatMap(admin -> Blocking.call(() -> {
                            try (Connection connection = dataSource.getConnection()) {
                                if (!new EvidenceLogReader(connection, admin.workspaceId()).holdsAuditRow(auditLogId)) {
                                    throw ApiException.notFound(EvidenceAdminHandler.AUDIT_ENTRY_NOT_FOUND);
                                }
                                return admin;
                            }
                        }))
                        .flatMap(admin -> commands.send(request, admin.user(), admin.workspaceId(),
                                new EraseAuditPayload(auditLogId.toString(), given)))
                        .then(JsonResponses.ok(new Erased(true, auditLogId.toString(), true)));
            });
        });
    }
}
