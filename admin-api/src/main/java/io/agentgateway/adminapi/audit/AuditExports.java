package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.export.AuditExport;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The audit export of a time range, for every client of it (the admin API's {@code GET …/audit-log/export}, the
 * console's explorer): JSON Lines or CSV, streamed from a cursor paced by the client ({@link StreamedExports}), bounded by
 * {@code gateway.ingress.audit-export.max-concurrent} whoever asks. The caller has authorized the reader; the answer is
 * the download itself (a refusal before its first byte: 429 when too many run).
 */
@Service
public class AuditExports {
    private final StreamedExports exports;

    AuditExports(StreamedExports exports) {
        this.exports = exports;
    }

    public Mono<ServerResponse> download(ServerRequest request, AuditExportFilter filter, AuditExportFormat format) {
        AuditExportRequest export = new AuditExportRequest(filter, format);
        StreamedExports.Download download = new StreamedExports.Download(
                "audit export of workspace " + filter.workspaceId() + " (" + format.wire() + ")",
                MediaType.parseMediaType(format.mediaType()), export.fileName());
        return exports.stream(request, download,
                (connection, out) -> AuditExport.write(connection, filter, format, out) + " rows");
    }
}
