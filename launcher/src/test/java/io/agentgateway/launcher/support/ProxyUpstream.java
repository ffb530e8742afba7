package io.agentgateway.launcher.support;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The code host, issue tracker or internal API behind the proxy in the end-to-end tests: a real HTTP
 * server (the JDK's) that records every request byte for byte and answers by path:
 * <ul>
 *   <li>{@code .../slow/...}: waits {@link #SLOW_MILLIS} before answering (the proxy's timeout is shorter);</li>
 *   <li>{@code .../bytes/<n>}: {@code n} bytes of {@link #pattern} as {@code application/octet-stream};</li>
 *   <li>anything else: {@code {"done":"<raw path>"}} with a pagination {@code Link} header and a rate-limit
 *       header, with the status the request's {@code X-Test-Status} header asks for (200 without one), and
 *       the {@code Link}, {@code Location} and {@code Content-Location} its {@code X-Test-Link},
 *       {@code X-Test-Location} and {@code X-Test-Content-Location} headers ask for.</li>
 * </ul>
 */
public final class ProxyUpstream extends RecordingServer<ProxyUpstream.Request> {
    public static final long SLOW_MILLIS = 4_000;
    public static final String LINK = "<https://upstream.example/repos/acme/api/issues?page=2>; rel=\"next\"";

    public record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body)
            implements RecordingServer.Recorded {
        public String header(String name) {
            List<String> values = headers.get(name.substring(0, 1).toUpperCase() + name.substring(1).toLowerCase());
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

    private ProxyUpstream() {
        super("proxy-upstream", true);
    }

    public static ProxyUpstream start() {
        return new ProxyUpstream();
    }

    /** Deterministic bytes covering every value 0..255. */
    public static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        return bytes;
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        requests.add(new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
                Map.copyOf(exchange.getRequestHeaders()), exchange.getRequestBody().readAllBytes()));
        try (exchange) {
            if (path.contains("/slow/")) {
                Thread.sleep(SLOW_MILLIS);
            }
            int bytesAt = path.indexOf("/bytes/");
            if (bytesAt >= 0) {
                byte[] body = pattern(Integer.parseInt(path.substring(bytesAt + "/bytes/".length())));
                exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    // in slices, so the proxy sees a stream rather than one buffer
                    for (int i = 0; i < body.length; i += 8192) {
                        out.write(body, i, Math.min(8192, body.length - i));
                    }
                }
                return;
            }
            String statusAsked = exchange.getRequestHeaders().getFirst("X-Test-Status");
            int status = statusAsked == null ? 200 : Integer.parseInt(statusAsked);
            byte[] body = ("{\"done\":\"" + path + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            String link = exchange.getRequestHeaders().getFirst("X-Test-Link");
            exchange.getResponseHeaders().add("Link", link == null ? LINK : link);
            for (String header : List.of("Location", "Content-Location")) {
                String asked = exchange.getRequestHeaders().getFirst("X-Test-" + header);
                if (asked != null) {
                    exchange.getResponseHeaders().add(header, asked);
                }
            }
            exchange.getResponseHeaders().add("X-RateLimit-Remaining", "4999");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
