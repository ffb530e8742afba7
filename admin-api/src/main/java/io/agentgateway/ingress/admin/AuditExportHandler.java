package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.export.AuditExport;
import io.agentgateway.ingress.export.AuditExportFilter;
import io.agentgateway.ingress.export.AuditExportFormat;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.CorrelationIds;
import java.io.OutputStream;
import java.sql.Connection;
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
 * GET /admin/v1/workspaces/{workspaceId}/audit-log/export: the audit trail of a time range as JSON
 * Lines or CSV, streamed.
 *
 * <p>The JDBC cursor runs on a worker thread ({@code boundedElastic}) and writes into
 * {@link DataBufferUtils#outputStreamPublisher}, whose stream blocks the worker while the client has
 * not asked for more: a slow client slows the cursor down instead of making the server buffer the
 * export. When the client goes away the next write fails, the worker leaves the loop, and the cursor,
 * transaction and pooled connection are closed. Errors before the first chunk are the usual JSON
 * errors (nothing is written before the query has run); after it the status is already sent, so the
 * response is cut off (a client sees an incomplete chunked body) and the failure is logged.
 */
@Component
public class AuditExportHandler {
    private static final Logger log = LoggerFactory.getLogger(AuditExportHandler.class);
    /** Bytes per chunk sent to the client; with Netty's bounded prefetch, what one export holds in flight. */
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final Executor WORKERS = task -> Schedulers.boundedElastic().schedule(task);
    static final String TOO_MANY = "Too many audit exports running; retry later";

    private final AdminAccess access;
    private final DataSource dataSource;
    private final AuditExportProperties properties;
    private final Semaphore running;

    AuditExportHandler(AdminAccess access, DataSource dataSource, AuditExportProperties properties) {
        this.access = access;
        this.dataSource = dataSource;
        this.properties = properties;
        this.running = new Semaphore(properties.maxConcurrent());
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
        String correlationId = CorrelationIds.of(request);
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<DataBuffer> body = Flux.from(DataBufferUtils.outputStreamPublisher(
                        out -> write(export, out, correlationId, cancelled),
                        request.exchange().getResponse().bufferFactory(), WORKERS, CHUNK_BYTES))
                .doOnCancel(() -> cancelled.set(true))
                .timeout(properties.stallTimeout());
        return ServerResponse.ok()
                .contentType(MediaType.parseMediaType(export.format().mediaType()))
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(export.fileName()).build().toString())
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(BodyInserters.fromDataBuffers(body));
    }

    /** On a worker thread; the slot is taken and given back here, so it cannot leak whatever the client does. */
    private void write(AuditExportRequest export, OutputStream out, String correlationId, AtomicBoolean cancelled) {
        if (!running.tryAcquire()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, TOO_MANY);
        }
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            long rows = AuditExport.write(connection, export.filter(), export.format(), out);
            log.info("[{}] audit export of workspace {} ({}): {} rows in {} ms", correlationId,
                    export.filter().workspaceId(), export.format().wire(), rows, (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            if (cancelled.get()) {
                // the client went away or stopped reading: nobody to answer, the resources are closed
                log.info("[{}] audit export of workspace {} ended early: the client went away or stalled",
                        correlationId, export.filter().workspaceId());
            } else {
                log.warn("[{}] audit export of workspace {} failed: {}", correlationId, export.filter().workspaceId(), e.toString());
            }
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException("audit export failed", e);
        } finally {
            running.release();
        }
    }
}
