package io.agentgateway.launcher;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tool's upstream API for the end-to-end tests: a real HTTP server (the JDK's) that records every
 * request it gets and answers {@code {"done":"<path>"}}. Tests tell their requests apart by path.
 */
final class RecordingUpstream implements AutoCloseable {
    record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body) {}

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private RecordingUpstream(HttpServer server) {
        this.server = server;
    }

    static RecordingUpstream start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            RecordingUpstream upstream = new RecordingUpstream(server);
            server.createContext("/", exchange -> {
                upstream.requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                        exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
                byte[] body = ("{\"done\":\"" + exchange.getRequestURI().getRawPath() + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return upstream;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The requests whose path starts with {@code prefix}. */
    List<Request> requestsTo(String prefix) {
        return requests.stream().filter(r -> r.rawPath().startsWith(prefix)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
