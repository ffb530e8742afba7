package io.agentgateway.benchmark.peers;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real OTLP/HTTP trace receiver on loopback for the benchmark's {@code bench.tracing=export}: it accepts
 * {@code POST /v1/traces} (protobuf), reads the whole request, counts requests and bytes, and answers 200 with an
 * empty {@code ExportTraceServiceResponse} (zero bytes), as a collector that keeps up does. Nothing is decoded or
 * kept: the cost measured is the gateway's, of making and sending the spans.
 */
public final class OtlpReceiver implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newSingleThreadExecutor(work -> {
        Thread thread = new Thread(work, "bench-otlp-receiver");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                bytes.addAndGet(body.transferTo(OutputStream.nullOutputStream()));
            }
            requests.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.setExecutor(threads);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public long requests() {
        return requests.get();
    }

    public long bytes() {
        return bytes.get();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
