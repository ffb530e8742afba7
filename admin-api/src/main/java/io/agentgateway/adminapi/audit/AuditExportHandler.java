package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.AdminAccess;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /admin/v1/workspaces/{workspaceId}/audit-log/export: the audit trail of a time range as JSON Lines or CSV
 * ({@link AuditExports}).
 */
@Component
public class AuditExportHandler {
    private final AdminAccess access;
    private final AuditExports exports;

    AuditExportHandler(AdminAccess access, AuditExports exports) {
        this.access = access;
        this.exports = exports;
    }

    public Mono<ServerResponse> export(ServerRequest request) {
        // 401, then the parameters (400), then the role (403), as the audit-log query
        return access.caller(request).flatMap(caller -> {
            AuditExportRequest export = AuditExportRequest.from(request, caller.workspaceId());
            return access.requireAdmin(caller).flatMap(admin -> exports.download(request, export.filter(), export.format()));
        });
    }
}
