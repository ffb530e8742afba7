package io.agentgateway.launcher;

import io.agentgateway.schemas.GatewayJson;
import java.io.ByteArrayOutputStream;
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
 * ({@code Connection: close}); the answer is read to the end, chunked bodies joined.
 */
final class ExactTargetHttp {
    private ExactTargetHttp() {}

    record Response(int status, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        JsonNode json() {
            return GatewayJson.MAPPER.readTree(body);
        }

        String text(String field) {
            JsonNode value = json().get(field);
            return value == null || value.isNull() ? null : value.asString();
        }

        String raw() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param target  the request target exactly as sent (path and query)
     * @param headers name, value, name, value, …
     */
    static Response send(URI server, String method, String target, byte[] body, String... headers) {
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
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Response parse(byte[] bytes) {
        int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (end < 0) {
            throw new IllegalStateException("no complete response head: " + new String(bytes, StandardCharsets.UTF_8));
        }
        String[] lines = new String(bytes, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        List<String> encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
            body = dechunk(body);
        }
        return new Response(status, headers, body);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = indexOf(chunked, "\r\n".getBytes(StandardCharsets.US_ASCII), at);
            String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                return body.toByteArray();
            }
            body.write(chunked, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
