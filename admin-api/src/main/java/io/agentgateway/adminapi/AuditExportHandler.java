package io.agentgateway.adminapi;

import io.agentgateway.adminapi.export.AuditExport;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /admin/v1/workspaces/{workspaceId}/audit-log/export: the audit trail of a time range as JSON
 * Lines or CSV, streamed from a cursor paced by the client ({@link StreamedExports}).
 */
@Component
public class AuditExportHandler {
    private final AdminAccess access;
    private final StreamedExports exports;

    AuditExportHandler(AdminAccess access, StreamedExports exports) {
        this.access = access;
        this.exports = exports;
    }

    public Mono<ServerResponse> export(ServerRequest request) {
        // 401, then the parameters (400), then the role (403), as the audit-log query
        return access.caller(request).flatMap(caller -> {
            AuditExportRequest export = AuditExportRequest.from(request, caller.workspaceId());
            return access.requireAdmin(caller).flatMap(admin -> stream(request, export));
        });
    }

    /**
     * The same export for a caller the console authorized (it read the workspace's membership): streamed, bounded by
     * {@code gateway.ingress.audit-export.max-concurrent} like the API's.
     */
    public Mono<ServerResponse> stream(ServerRequest request, AuditExportFilter filter,
                                       AuditExportFormat format) {
        return stream(request, new AuditExportRequest(filter, format));
    }

    private Mono<ServerResponse> stream(ServerRequest request, AuditExportRequest export) {
        StreamedExports.Download download = new StreamedExports.Download(
                "audit export of workspace " + export.filter().workspaceId() + " (" + export.format().wire() + ")",
                MediaType.parseMediaType(export.format().mediaType()), export.fileName());
        return exports.stream(request, download,
                (connection, out) -> AuditExport.write(connection, export.filter(), export.format(), out) + " rows");
    }
}
