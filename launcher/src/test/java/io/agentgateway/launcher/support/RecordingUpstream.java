package io.agentgateway.launcher.support;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A tool's upstream API for the end-to-end tests: a real HTTP server (the JDK's) that records every
 * request it gets and answers {@code {"done":"<path>"}}. Tests tell their requests apart by path.
 */
public final class RecordingUpstream extends RecordingServer<RecordingUpstream.Request> {
    public record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body)
            implements RecordingServer.Recorded {}

    private RecordingUpstream() {
        super("recording-upstream", false);
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        byte[] body = ("{\"done\":\"" + exchange.getRequestURI().getRawPath() + "\"}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    public static RecordingUpstream start() {
        return new RecordingUpstream();
    }
}
