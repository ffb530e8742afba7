package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.httpedge.web.ApiException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The parameters of GET .../audit-log/export: the audit-log query's filters, of which from and to are
 * required here (an export is of a time range, and a fixed range makes it repeatable), and format
 * (jsonl or csv, default jsonl).
 */
record AuditExportRequest(AuditExportFilter filter, AuditExportFormat format) {
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    static AuditExportRequest from(ServerRequest request, UUID workspaceId) {
        AuditFilterParams filters = AuditFilterParams.from(request);
        if (filters.from() == null) {
            throw ApiException.badRequest("from is required (an ISO-8601 timestamp)");
        }
        if (filters.to() == null) {
            throw ApiException.badRequest("to is required (an ISO-8601 timestamp)");
        }
        String formatText = QueryParams.param(request, "format");
        AuditExportFormat format = formatText == null ? AuditExportFormat.JSONL : AuditExportFormat.parse(formatText)
                .orElseThrow(() -> ApiException.badRequest(AuditExportFormat.MESSAGE));
        return new AuditExportRequest(new AuditExportFilter(workspaceId, filters.from(), filters.to(),
                filters.correlationId(), filters.agentId(), filters.tool(), filters.decision(), filters.action(),
                filters.riskLevel(), filters.source(), filters.undelivered()), format);
    }

    /** {@code audit-log_<workspace>_<from>_<to>.<ext>}, with times in a form every file system accepts. */
    String fileName() {
        return "audit-log_" + filter.workspaceId() + "_" + FILE_TIME.format(filter.from()) + "_"
                + FILE_TIME.format(filter.to()) + format.fileExtension();
    }
}
