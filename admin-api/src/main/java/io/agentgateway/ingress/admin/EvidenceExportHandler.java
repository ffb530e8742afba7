package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.evidence.EvidenceExporter;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.CorrelationIds;
import io.agentgateway.ingress.web.JsonFields;
import java.io.OutputStream;
import java.sql.Connection;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * GET /admin/v1/workspaces/{workspaceId}/evidence/export[?from&to][&consistencyFrom=M]: the evidence export
 * (docs/evidence.md: entries, their proofs, the checkpoints and the public keys), streamed as the audit export is
 * ({@link AuditExportHandler}: a cursor on a worker thread, paced by the client, counted against the same limit of
 * concurrent exports). Without {@code from}/{@code to}: every entry of the log up to its latest checkpoint.
 */
@Component
public class EvidenceExportHandler {
    private static final Logger log = LoggerFactory.getLogger(EvidenceExportHandler.class);
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final Executor WORKERS = task -> Schedulers.boundedElastic().schedule(task);
    static final String MEDIA_TYPE = "application/x-ndjson";

    private final AdminAccess access;
    private final DataSource dataSource;
    private final AuditExportProperties properties;
    private final EvidenceAdminHandler evidence;
    private final Semaphore running;

    EvidenceExportHandler(AdminAccess access, DataSource dataSource, AuditExportProperties properties,
                          EvidenceAdminHandler evidence) {
        this.access = access;
        this.dataSource = dataSource;
        this.properties = properties;
        this.evidence = evidence;
        this.running = new Semaphore(properties.maxConcurrent());
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
        String correlationId = CorrelationIds.of(request);
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<DataBuffer> body = Flux.from(DataBufferUtils.outputStreamPublisher(
                        out -> write(export, out, correlationId, cancelled),
                        request.exchange().getResponse().bufferFactory(), WORKERS, CHUNK_BYTES))
                .doOnCancel(() -> cancelled.set(true))
                .timeout(properties.stallTimeout());
        String fileName = "evidence-" + export.workspaceId() + ".jsonl";
        return ServerResponse.ok()
                .contentType(MediaType.parseMediaType(MEDIA_TYPE))
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(fileName).build().toString())
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(BodyInserters.fromDataBuffers(body));
    }

    private void write(EvidenceExporter.Request export, OutputStream out, String correlationId, AtomicBoolean cancelled) {
        if (!running.tryAcquire()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, AuditExportHandler.TOO_MANY);
        }
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            EvidenceExporter.Written written = EvidenceExporter.write(connection, export, evidence.trustedKeys(),
                    evidence.origin() + "/" + export.workspaceId(), out);
            log.info("[{}] evidence export of workspace {}: {} entries up to tree size {} in {} ms", correlationId,
                    export.workspaceId(), written.entries(), written.treeSize(), (System.nanoTime() - started) / 1_000_000);
        } catch (IllegalArgumentException e) {
            // consistencyFrom beyond the latest checkpoint: nothing was written yet
            throw new ApiException(HttpStatus.CONFLICT, e.getMessage());
        } catch (Exception e) {
            if (cancelled.get()) {
                log.info("[{}] evidence export of workspace {} ended early: the client went away or stalled", correlationId,
                        export.workspaceId());
            } else {
                log.warn("[{}] evidence export of workspace {} failed: {}", correlationId, export.workspaceId(), e.toString());
            }
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException("evidence export failed", e);
        } finally {
            running.release();
        }
    }
}
