package io.agentgateway.adminapi.audit;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
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
 * A download written from a database cursor (the audit export, the evidence export), streamed.
 *
 * <p>The cursor runs on a worker thread ({@code boundedElastic}) and writes into
 * {@link DataBufferUtils#outputStreamPublisher}, whose stream blocks the worker while the client has
 * not asked for more: a slow client slows the cursor down instead of making the server buffer the
 * export. When the client goes away the next write fails, the worker leaves the loop, and the cursor,
 * transaction and pooled connection are closed. Errors before the first chunk are the usual JSON
 * errors (nothing is written before the query has run); after it the status is already sent, so the
 * response is cut off (a client sees an incomplete chunked body) and the failure is logged. Every kind of
 * export counts against one limit, {@code gateway.ingress.audit-export.max-concurrent}: each holds a pooled
 * connection for as long as its client reads.
 */
@Component
class StreamedExports {
    private static final Logger log = LoggerFactory.getLogger(StreamedExports.class);
    /** Bytes per chunk sent to the client; with Netty's bounded prefetch, what one export holds in flight. */
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final Executor WORKERS = task -> Schedulers.boundedElastic().schedule(task);
    static final String TOO_MANY = "Too many audit exports running; retry later";

    /** Writes one export from {@code connection} to {@code out}; answers what it wrote, for the log line. */
    @FunctionalInterface
    interface ExportWriter {
        String write(Connection connection, OutputStream out) throws Exception;
    }

    /** What the log lines call the export ("audit export of workspace ..."), its media type and file name. */
    record Download(String description, MediaType mediaType, String fileName) {}

    private final DataSource dataSource;
    private final AuditExportProperties properties;
    private final Semaphore running;

    StreamedExports(DataSource dataSource, AuditExportProperties properties) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.running = new Semaphore(properties.maxConcurrent());
    }

    Mono<ServerResponse> stream(ServerRequest request, Download download, ExportWriter writer) {
        String correlationId = CorrelationIds.of(request);
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<DataBuffer> body = Flux.from(DataBufferUtils.outputStreamPublisher(
                        out -> write(download, writer, out, correlationId, cancelled),
                        request.exchange().getResponse().bufferFactory(), WORKERS, CHUNK_BYTES))
                .doOnCancel(() -> cancelled.set(true))
                .timeout(properties.stallTimeout());
        return ServerResponse.ok()
                .contentType(download.mediaType())
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(download.fileName()).build().toString())
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(BodyInserters.fromDataBuffers(body));
    }

    /** On a worker thread; the slot is taken and given back here, so it cannot leak whatever the client does. */
    private void write(Download download, ExportWriter writer, OutputStream out, String correlationId,
                       AtomicBoolean cancelled) {
        if (!running.tryAcquire()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, TOO_MANY);
        }
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            String written = writer.write(connection, out);
            log.info("[{}] {}: {} in {} ms", correlationId, download.description(), written,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (ApiException e) {
            // the writer's own answer to the request (nothing was written yet)
            throw e;
        } catch (Exception e) {
            if (cancelled.get()) {
                // the client went away or stopped reading: nobody to answer, the resources are closed
                log.info("[{}] {} ended early: the client went away or stalled", correlationId, download.description());
            } else {
                log.warn("[{}] {} failed: {}", correlationId, download.description(), e.toString());
            }
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(download.description() + " failed", e);
        } finally {
            running.release();
        }
    }
}
