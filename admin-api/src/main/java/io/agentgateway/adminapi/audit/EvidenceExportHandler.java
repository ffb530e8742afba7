package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.evidence.EvidenceExporter;
import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /admin/v1/workspaces/{workspaceId}/evidence/export[?from&to][&consistencyFrom=M]: the evidence export
 * (docs/evidence.md: entries, their proofs, the checkpoints and the public keys), streamed as the audit export is
 * ({@link AuditExportHandler}: a cursor on a worker thread, paced by the client, counted against the same limit of
 * concurrent exports). Without {@code from}/{@code to}: every entry of the log up to its latest checkpoint.
 */
@Component
public class EvidenceExportHandler {
    static final String MEDIA_TYPE = "application/x-ndjson";

    private final AdminAccess access;
    private final StreamedExports exports;
    private final EvidenceAdminHandler evidence;

    EvidenceExportHandler(AdminAccess access, StreamedExports exports, EvidenceAdminHandler evidence) {
        this.access = access;
        this.exports = exports;
        this.evidence = evidence;
    }

    public Mono<ServerResponse> export(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            EvidenceExporter.Request export = exportRequest(request, caller.workspaceId());
            return access.requireAdmin(caller).flatMap(admin -> stream(request, export));
        });
    }

    private static EvidenceExporter.Request exportRequest(ServerRequest request, UUID workspaceId) {
        String fromText = QueryParams.param(request, "from");
        String toText = QueryParams.param(request, "to");
        if ((fromText == null) != (toText == null)) {
            throw ApiException.badRequest("from and to go together: both for a time range, neither for the whole log");
        }
        Instant from = fromText == null ? null : JsonFields.instant(fromText, "from");
        Instant to = toText == null ? null : JsonFields.instant(toText, "to");
        if (from != null && !from.isBefore(to)) {
            throw ApiException.badRequest("from must be before to");
        }
        String consistency = QueryParams.param(request, "consistencyFrom");
        Long consistencyFrom = consistency == null ? null : EvidenceAdminHandler.size(consistency, "consistencyFrom");
        return new EvidenceExporter.Request(workspaceId, from, to, consistencyFrom);
    }

    private Mono<ServerResponse> stream(ServerRequest request, EvidenceExporter.Request export) {
        StreamedExports.Download download = new StreamedExports.Download(
                "evidence export of workspace " + export.workspaceId(), MediaType.parseMediaType(MEDIA_TYPE),
                "evidence-" + export.workspaceId() + ".jsonl");
        return exports.stream(request, download, (connection, out) -> {
            try {
                EvidenceExporter.Written written = EvidenceExporter.write(connection, export, evidence.trustedKeys(),
                        evidence.origin() + "/" + export.workspaceId(), out);
                return written.entries() + " entries up to tree size " + written.treeSize();
            } catch (IllegalArgumentException e) {
                // consistencyFrom beyond the latest checkpoint: nothing was written yet
                throw new ApiException(HttpStatus.CONFLICT, e.getMessage());
            }
        });
    }
}
