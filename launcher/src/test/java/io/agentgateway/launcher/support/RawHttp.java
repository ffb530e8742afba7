package io.agentgateway.launcher.support;

import io.agentgateway.schemas.GatewayJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * HTTP/1.1 over a plain socket, for what a well-behaved client library will not send: malformed framing,
 * over-long lines, a declared length with no body behind it. One request per connection. Its response reader
 * ({@link #readResponse}) serves {@link ExactTargetHttp} too.
 */
public final class RawHttp {
    /** The server's answer: status, headers (names in lower case), body, and how long it took from the last byte sent. */
    public record Answer(int status, Map<String, String> headers, String body, Duration took) {
        public JsonNode json() {
            return GatewayJson.MAPPER.readTree(body);
        }
    }

    private RawHttp() {}

    public static Socket connect(String baseUrl) {
        URI uri = URI.create(baseUrl);
        try {
            Socket socket = new Socket(uri.getHost(), uri.getPort());
            socket.setTcpNoDelay(true);
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends {@code request} as it is and reads one response (throws on no answer within {@code timeout}). */
    public static Answer exchange(String baseUrl, String request, Duration timeout) {
        return exchange(baseUrl, request.getBytes(StandardCharsets.ISO_8859_1), timeout);
    }

    public static Answer exchange(String baseUrl, byte[] request, Duration timeout) {
        try (Socket socket = connect(baseUrl)) {
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            long sent = System.nanoTime();
            return read(socket, timeout, sent);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads one response from the socket. */
    public static Answer read(Socket socket, Duration timeout, long sentNanos) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        Response response = readResponse(socket.getInputStream(), false);
        Map<String, String> headers = new LinkedHashMap<>();
        response.headers().forEach(header -> headers.put(header.getKey(), header.getValue()));
        return new Answer(response.status(), headers, new String(response.body(), StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - sentNanos));
    }

    /** One response as read: the status, every header line in order (names in lower case), the body (chunks joined). */
    record Response(int status, List<Map.Entry<String, String>> headers, byte[] body) {}

    /**
     * Reads one response: its head, then a chunked body, one of the declared length, or, with neither,
     * ({@code toEndWithoutLength}) everything up to the end of the connection or (otherwise) nothing.
     */
    static Response readResponse(InputStream in, boolean toEndWithoutLength) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!endsWithBlankLine(head)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a complete response head: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        String length = null;
        String encoding = null;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim();
                headers.add(Map.entry(name, value));
                length = name.equals("content-length") ? value : length;
                encoding = name.equals("transfer-encoding") && encoding == null ? value : encoding;
            }
        }
        byte[] body = "chunked".equalsIgnoreCase(encoding) ? readChunked(in)
                : length != null ? in.readNBytes(Integer.parseInt(length))
                : toEndWithoutLength ? in.readAllBytes() : new byte[0];
        return new Response(status, headers, body);
    }

    /** Whether the server closes the connection within {@code timeout} (reads and drops anything it still sends). */
    public static boolean closesWithin(Socket socket, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            InputStream in = socket.getInputStream();
            while (System.nanoTime() < deadline) {
                socket.setSoTimeout((int) Math.max(1, Duration.ofNanos(deadline - System.nanoTime()).toMillis()));
                try {
                    if (in.read() < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    return false;
                }
            }
            return false;
        } catch (IOException reset) {
            return true; // a reset is closed too
        }
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                readLine(in);
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed in a chunked body");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private static boolean endsWithBlankLine(ByteArrayOutputStream head) {
        byte[] b = head.toByteArray();
        int n = b.length;
        return n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
    }
}
