package io.agentgateway.launcher;

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

    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final LoopbackServer server = LoopbackServer.start("recording-upstream", false, exchange -> {
        requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        byte[] body = ("{\"done\":\"" + exchange.getRequestURI().getRawPath() + "\"}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    });

    private RecordingUpstream() {}

    static RecordingUpstream start() {
        return new RecordingUpstream();
    }

    String baseUrl() {
        return server.baseUrl();
    }

    /** The requests whose path starts with {@code prefix}. */
    List<Request> requestsTo(String prefix) {
        return requests.stream().filter(r -> r.rawPath().startsWith(prefix)).toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
