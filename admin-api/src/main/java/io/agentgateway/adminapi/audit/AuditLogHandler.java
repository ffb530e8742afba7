package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** GET /admin/v1/workspaces/{workspaceId}/audit-log: {@code {ok, items, nextCursor}} (nextCursor null on the last page). */
@Component
public class AuditLogHandler {
    private final AdminAccess access;
    private final AuditLog auditLog;

    AuditLogHandler(AdminAccess access, AuditLog auditLog) {
        this.access = access;
        this.auditLog = auditLog;
    }

    record PageView(boolean ok, List<AuditEntry> items, String nextCursor) {}

    public Mono<ServerResponse> query(ServerRequest request) {
        // the filters are validated (400) before the membership lookup (403)
        return access.caller(request).flatMap(caller -> {
            AuditLogQuery query = AuditLogQuery.from(request);
            return access.requireAdmin(caller).flatMap(admin -> auditLog.page(admin.workspaceId(), query));
        }).flatMap(page -> JsonResponses.ok(new PageView(true, page.items(), page.next() == null ? null : page.next().encode())));
    }
}
