package io.agentgateway.launcher.support;

import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * HTTP/1.1 over a plain socket: the request line goes out byte for byte as written (any method, any
 * target, encoded or not), which no HTTP client library promises. One request per connection
 * ({@code Connection: close}); the answer is read by {@link RawHttp#readResponse} (chunked bodies joined, a body
 * without a declared length read to the end).
 */
public final class ExactTargetHttp {
    private ExactTargetHttp() {}

    public record Response(int status, Map<String, List<String>> headers, byte[] body) {
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        JsonNode json() {
            return GatewayJson.MAPPER.readTree(body);
        }

        public String text(String field) {
            JsonNode value = json().get(field);
            return value == null || value.isNull() ? null : value.asString();
        }

        public String raw() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param target  the request target exactly as sent (path and query)
     * @param headers name, value, name, value, …
     */
    public static Response send(URI server, String method, String target, byte[] body, String... headers) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.getHost(), server.getPort()), 5_000);
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder()
                    .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                    .append("Host: ").append(server.getHost()).append(':').append(server.getPort()).append("\r\n")
                    .append("Connection: close\r\n");
            for (int i = 0; i < headers.length; i += 2) {
                head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            }
            if (body.length > 0 || method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            RawHttp.Response response = RawHttp.readResponse(socket.getInputStream(), true);
            Map<String, List<String>> byName = new LinkedHashMap<>();
            response.headers().forEach(header -> byName.computeIfAbsent(header.getKey(), k -> new ArrayList<>()).add(header.getValue()));
            return new Response(response.status(), byName, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
