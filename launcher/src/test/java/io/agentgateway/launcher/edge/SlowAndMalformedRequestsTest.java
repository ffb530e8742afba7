package io.agentgateway.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.EdgeReplica;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RawHttp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, findings 1 and 2, over raw sockets: what the HTTP codec cannot decode is a JSON 400/414/431
 * and no ERROR in the log; a declared body over the limit is 413 before the body is sent; and clients that
 * send too slowly (headers or body) are answered 408 and cut off by the read timeouts. The timeouts are
 * tried on {@link EdgeReplica} (2 s for headers and for a pause in a body, 4 s for a whole body, 3 s idle);
 * the rest on the gateway with its defaults.
 */
class SlowAndMalformedRequestsTest {
    private static final Duration QUICK = Duration.ofSeconds(3);

    @Test
    void whatTheHttpCodecCannotDecodeIsAJsonErrorAndNoErrorInTheLog() {
        String base = GatewayHarness.gateway().baseUrl();
        String key = GatewayHarness.newWorkspace().apiKey();
        String evaluate = "POST /functions/v1/evaluate-action HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\n";
        try (CapturedLogLines logs = CapturedLogLines.start()) {
            // an invalid chunk size, once at the start of the body and once after a good chunk
            expect(base, evaluate + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, "Malformed HTTP request");
            expect(base, evaluate + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n\r\n", 400, "Malformed HTTP request");
            // Content-Length together with Transfer-Encoding (request smuggling's first step)
            expect(base, evaluate + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 400,
                    "Malformed HTTP request");
            expect(base, "GET /functions/v1/mcp-gate/status/x HTTP/1.1\r\nHost: gw\r\nContent-Length: abc\r\n\r\n", 400,
                    "Malformed HTTP request");
            expect(base, "GARBAGE\r\n\r\n", 400, "Malformed HTTP request");
            expect(base, "GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: gw\r\n\r\n", 414, "The request line is too long");
            expect(base, "GET / HTTP/1.1\r\nHost: gw\r\nX-Big: " + "b".repeat(9000) + "\r\n\r\n", 431, "The request headers are too large");

            assertThat(logs.clientInputProblems()).isEmpty();
        }
    }

    @Test
    void aDeclaredLengthOverTheLimitIs413AtOnceWithoutTheBody() {
        String base = GatewayHarness.gateway().baseUrl();
        String key = GatewayHarness.newWorkspace().apiKey();
        // 8 bytes of a declared 300,000: the answer must not wait for the other 299,992
        for (String target : List.of("POST /functions/v1/evaluate-action", "POST /functions/v1/mcp-gate/sse",
                "PUT /functions/v1/gateway-proxy/code_host/repos/a/b/contents/f", "POST /admin/v1/workspaces")) {
            RawHttp.Answer answer = RawHttp.exchange(base, target + " HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{\"a\":1}", QUICK);
            assertThat(answer.status()).as(target).isEqualTo(413);
            assertThat(answer.json().get("error").asString()).isEqualTo("Request body too large");
            assertThat(answer.headers().get("connection")).isEqualTo("close");
            assertThat(answer.took()).as(target).isLessThan(Duration.ofSeconds(2));
        }
        RawHttp.Answer webhook = RawHttp.exchange(base, "POST /functions/v1/webhook-code-host HTTP/1.1\r\nHost: gw\r\n"
                + "Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{\"a\":1}", QUICK);
        assertThat(webhook.status()).isEqualTo(413);
        assertThat(webhook.took()).isLessThan(Duration.ofSeconds(2));
    }

    /**
     * The 413 is sent before the body is read, while the client is still sending it; closing the socket with the
     * body unread would reset the connection and could destroy the answer before the client reads it. The
     * connection lingers, dropping the rest, so a client that sends its whole body reads its 413 every time.
     */
    @Test
    void aClientStillSendingAnOversizedBodyReadsIts413EveryTime() throws Exception {
        String base = GatewayHarness.gateway().baseUrl();
        String key = GatewayHarness.newWorkspace().apiKey();
        byte[] body = ("{\"pad\":\"" + "x".repeat(700 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 20; i++) {
            for (String path : List.of("/functions/v1/evaluate-action", "/functions/v1/webhook-code-host")) {
                HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + path))
                                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).as(path).isEqualTo(413);
            }
        }
    }

    @Test
    void aRequestWhoseHeadersOrBodyDoNotArriveInTimeIs408() {
        String base = EdgeReplica.baseUrl();
        RawHttp.Answer headers = RawHttp.exchange(base, "POST /functions/v1/evaluate-action HTTP/1.1\r\nHost: gw\r\n", Duration.ofSeconds(10));
        assertThat(headers.status()).isEqualTo(408);
        assertThat(headers.json().get("error").asString()).isEqualTo("The request headers were not received within 2 s");
        assertThat(headers.took()).isBetween(Duration.ofMillis(1500), Duration.ofSeconds(6));

        RawHttp.Answer body = RawHttp.exchange(base, "POST /functions/v1/webhook-code-host HTTP/1.1\r\nHost: gw\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":", Duration.ofSeconds(10));
        assertThat(body.status()).isEqualTo(408);
        assertThat(body.json().get("error").asString()).isEqualTo("No part of the request body arrived for 2 s");
    }

    /**
     * 200 slowloris connections, half dribbling their headers, half their body, one byte every 500 ms: each
     * byte comes in time, but the whole never does. Before, all 200 were still open after 60 s.
     */
    @Test
    void twoHundredSlowlorisConnectionsAreAllClosedByTheReadTimeouts() throws Exception {
        String base = EdgeReplica.baseUrl();
        List<Socket> sockets = new ArrayList<>();
        ConcurrentHashMap<Socket, Boolean> writable = new ConcurrentHashMap<>();
        ScheduledExecutorService dribble = Executors.newSingleThreadScheduledExecutor();
        ExecutorService readers = Executors.newFixedThreadPool(200);
        try (CapturedLogLines logs = CapturedLogLines.start()) {
            for (int i = 0; i < 200; i++) {
                Socket socket = RawHttp.connect(base);
                String start = i % 2 == 0
                        ? "POST /functions/v1/evaluate-action HTTP/1.1\r\nHost: gw\r\nX-Slow: "
                        : "POST /functions/v1/webhook-code-host HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 100000\r\n\r\n{\"a\":\"";
                socket.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
                sockets.add(socket);
                writable.put(socket, true);
            }
            dribble.scheduleAtFixedRate(() -> writable.keySet().forEach(socket -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write('x');
                    out.flush();
                } catch (IOException closedByTheServer) {
                    writable.remove(socket);
                }
            }), 500, 500, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            List<Future<Boolean>> closed = new ArrayList<>();
            for (Socket socket : sockets) {
                closed.add(readers.submit(() -> RawHttp.closesWithin(socket, Duration.ofSeconds(15))));
            }
            for (Future<Boolean> c : closed) {
                assertThat(c.get(20, TimeUnit.SECONDS)).isTrue();
            }
            // header timeout 2 s, body timeout 4 s: all closed well before 60 s
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(12));
            assertThat(logs.clientInputProblems()).isEmpty();
        } finally {
            dribble.shutdownNow();
            readers.shutdownNow();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void aKeptAliveConnectionThatStaysIdleIsClosed() throws Exception {
        try (Socket socket = RawHttp.connect(EdgeReplica.baseUrl())) {
            socket.getOutputStream().write("GET /functions/v1/nothing-here HTTP/1.1\r\nHost: gw\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            RawHttp.Answer answer = RawHttp.read(socket, QUICK, System.nanoTime());
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.headers().get("connection")).isNotEqualTo("close");
            // gateway.http.idle-timeout is 3 s on the replica
            assertThat(RawHttp.closesWithin(socket, Duration.ofSeconds(8))).isTrue();
        }
    }

    private static void expect(String base, String request, int status, String error) {
        RawHttp.Answer answer = RawHttp.exchange(base, request, QUICK);
        assertThat(answer.status()).as(request.lines().findFirst().orElse("")).isEqualTo(status);
        assertThat(answer.headers().get("content-type")).isEqualTo("application/json");
        assertThat(answer.json().get("ok").asBoolean()).isFalse();
        assertThat(answer.json().get("error").asString()).isEqualTo(error);
        assertThat(answer.json().get("correlationId").asString()).isEqualTo(answer.headers().get("x-correlation-id"));
    }
}
