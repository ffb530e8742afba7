package io.agentgateway.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.edge.BadInputs.Answer;
import io.agentgateway.launcher.edge.BadInputs.Case;
import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RawHttp;
import io.agentgateway.schemas.GatewayJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14's bad-input suite: over a thousand generated inputs ({@link BadInputs}) across every endpoint, sent
 * over HTTP to the real embedded gateway, each of which must get a documented 4xx (or 503/504) in the JSON
 * error shape ({@code {ok:false, error, correlationId}}, the id also in {@code X-Correlation-Id}) or, on the
 * MCP gate, a JSON-RPC error object; no stack trace and no Java class name in the body; an answer within
 * {@link BadInputs#ANSWER_WITHIN}. And none of them may put an ERROR or a stack trace into the log.
 */
class BadInputSuiteTest {
    private static final Pattern INTERNALS = Pattern.compile(
            "(?i)(exception|\\bat [a-z]+\\.[\\w.$]+\\(|\\.java:\\d+|java\\.|javax\\.|jakarta\\.|org\\.springframework|"
                    + "io\\.agentgateway|reactor\\.|io\\.netty|tools\\.jackson|com\\.fasterxml|org\\.postgresql|org\\.apache|"
                    + "psql|sqlstate|stacktrace|nullpointer|classcast)");
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static CapturedLogLines logs;
    private static List<Case> cases;
    private static final Map<String, Integer> BY_STATUS = new TreeMap<>();
    private static long startedNanos;

    @BeforeAll
    static void generate() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String stranger = GatewayHarness.jwt("stranger-" + UUID.randomUUID(), "stranger@test.local");
        String expired = DevJwts.sign(GatewayHarness.gateway().secrets().jwtSecret(), ws.ownerId(),
                ws.ownerEmail(), Duration.ofSeconds(-3600));
        cases = BadInputs.generate(new BadInputs.Fixture(ws.id(), ws.ownerJwt(), stranger, expired, ws.apiKey(),
                GatewayHarness.gateway().operatorJwt()));
        logs = CapturedLogLines.start();
        startedNanos = System.nanoTime();
    }

    @AfterAll
    static void closeLogs() {
        if (logs != null) {
            logs.close();
        }
        System.out.printf("bad-input suite: %d inputs in %.1f s, by status %s%n", cases.size(),
                (System.nanoTime() - startedNanos) / 1e9, BY_STATUS);
    }

    @TestFactory
    Stream<DynamicTest> everyBadInputGetsADocumentedJsonErrorInTimeAndNoErrorInTheLog() {
        assertThat(cases).hasSizeGreaterThanOrEqualTo(1000);
        String base = GatewayHarness.gateway().baseUrl();
        Stream<DynamicTest> inputs = cases.stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> check(base, c)));
        Stream<DynamicTest> log = Stream.of(DynamicTest.dynamicTest("no ERROR and no stack trace in the log from client input",
                () -> assertThat(logs.clientInputProblems()).isEmpty()));
        return Stream.concat(inputs, log);
    }

    private static void check(String base, Case c) {
        RawHttp.Answer answer = send(base, c);
        synchronized (BY_STATUS) {
            BY_STATUS.merge(Integer.toString(answer.status()), 1, Integer::sum);
        }
        assertThat(answer.took()).as("%s answered within %s", c, BadInputs.ANSWER_WITHIN).isLessThan(BadInputs.ANSWER_WITHIN);
        assertThat(answer.status()).as("%s: status; body %s", c, answer.body()).isIn(c.expected());
        assertThat(INTERNALS.matcher(answer.body()).find()).as("%s: internals in the body: %s", c, answer.body()).isFalse();
        JsonNode body = GatewayJson.MAPPER.readTree(answer.body());
        if (c.answer() == Answer.JSON_RPC_ERROR && answer.status() == 200) {
            JsonNode errors = body.isArray() ? body : GatewayJson.MAPPER.createArrayNode().add(body);
            assertThat(errors).as("%s: a JSON-RPC error for every message: %s", c, answer.body()).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.at("/error/code").isIntegralNumber()).isTrue());
            return;
        }
        assertThat(BadInputs.DOCUMENTED).as(c.toString()).contains(answer.status());
        assertThat(answer.headers().get("content-type")).as(c.toString()).startsWith("application/json");
        assertThat(body.get("ok").asBoolean(true)).as(c.toString()).isFalse();
        assertThat(body.get("error").asString("")).as(c.toString()).isNotBlank();
        String correlationId = body.get("correlationId").asString("");
        assertThat(UUID_TEXT.matcher(correlationId).matches()).as("%s: correlationId %s", c, correlationId).isTrue();
        assertThat(answer.headers().get("x-correlation-id")).as(c.toString()).isEqualTo(correlationId);
    }

    /**
     * Over a socket, byte for byte as the case says: no client library normalizes its headers. Bodies over
     * 100 KB go chunked (the limit must hold while reading, not only on a declared length).
     */
    private static RawHttp.Answer send(String base, Case c) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        StringBuilder head = new StringBuilder(c.method()).append(' ').append(c.path()).append(" HTTP/1.1\r\nHost: gateway\r\n");
        for (String[] header : c.headers()) {
            head.append(header[0]).append(": ").append(header[1]).append("\r\n");
        }
        boolean chunked = c.body() != null && c.body().length > 100_000;
        if (c.body() != null) {
            head.append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + c.body().length + "\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        request.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        if (c.body() != null && !chunked) {
            request.writeBytes(c.body());
        }
        try (Socket socket = RawHttp.connect(base)) {
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.toByteArray());
                if (chunked) {
                    for (int offset = 0; offset < c.body().length; offset += 16_384) {
                        int n = Math.min(16_384, c.body().length - offset);
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(c.body(), offset, n);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            } catch (IOException refusedMidBody) {
                // a 413 may close the connection before the whole body is written: its answer is still there to read
            }
            return RawHttp.read(socket, BadInputs.ANSWER_WITHIN, System.nanoTime());
        } catch (IOException e) {
            throw new UncheckedIOException("no answer to " + c, e);
        }
    }
}
