package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.adminapi.export.AuditExport;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.cli.ExportCommand;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.GatewayJson;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * GET /admin/v1/workspaces/{ws}/audit-log/export through the whole gateway: real evaluations exported
 * and compared with the audit-log query API, the documented errors, the CLI writing the same bytes,
 * and clients that stop reading or go away mid-stream.
 */
class AuditExportApiTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** Far from any real evaluation's time, for rows inserted directly. */
    private static final Instant BULK_START = Instant.parse("2031-01-01T00:00:00Z");
    private static final int BULK_ROWS = 60_000;

    private static TestWorkspace ws;
    private static Instant evaluationsFrom;
    private static Instant evaluationsTo;
    private static List<JsonNode> queried;

    /** A dozen real evaluations under a policy, a kill-switch call, all projected. */
    @BeforeAll
    static void evaluations() {
        ws = GatewayHarness.newWorkspace();
        evaluationsFrom = Instant.now().minusSeconds(60);
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "block, \"rogue\" agents", "priority", 10, "decision", "block", "match", Map.of("agentIds", List.of("rogue-*"))));
        assertThat(policy.status()).as(policy.rawBody()).isEqualTo(201);
        int evaluations = 0;
        for (String tool : List.of("chat", "docs", "code_host", "mcp")) {
            assertThat(evaluate(ws, action(tool, "thing.read", "low")).status()).isEqualTo(200);
            assertThat(evaluate(ws, Map.of("tool", tool, "action", "thing.delete", "riskLevel", "high", "agentId", "rogue-1",
                    "payload", Map.of("text", "a, \"quoted\"\nmulti-line value")))).extracting(GatewayHttpClient.Response::status).isEqualTo(200);
            assertThat(evaluate(ws, action(tool, "thing.purge", "critical")).status()).isEqualTo(200);
            evaluations += 3;
        }
        assertThat(GatewayHarness.killSwitch(ws, "pause_tool", "docs").status()).isEqualTo(200);
        int expected = evaluations + 1;
        evaluationsTo = Instant.now().plusSeconds(60);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            var page = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=500", ws.ownerJwt(), null);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body().get("items")).hasSize(expected);
        });
        var page = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=500", ws.ownerJwt(), null);
        queried = new ArrayList<>();
        page.body().get("items").forEach(queried::add);
    }

    private static String exportPath(String workspaceId, String query) {
        return "/admin/v1/workspaces/" + workspaceId + "/audit-log/export" + query;
    }

    private static String range(Instant from, Instant to) {
        return "?from=" + from + "&to=" + to;
    }

    private static HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                .timeout(Duration.ofSeconds(60));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void theJsonLinesExportHoldsWhatTheAuditQueryShowsOldestFirstWithThePolicyVersion() throws Exception {
        HttpResponse<String> response = get(exportPath(ws.id(), range(evaluationsFrom, evaluationsTo)), ws.ownerJwt());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/x-ndjson");
        assertThat(response.headers().firstValue("Content-Disposition").orElseThrow())
                .startsWith("attachment; filename=\"audit-log_" + ws.id() + "_").endsWith(".jsonl\"");
        assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
        List<JsonNode> lines = response.body().lines().map(GatewayJson.MAPPER::readTree).toList();
        assertThat(lines).hasSize(queried.size());

        Map<String, JsonNode> byId = new HashMap<>();
        lines.forEach(line -> byId.put(line.get("id").asString(), line));
        for (JsonNode item : queried) {
            JsonNode line = byId.get(item.get("id").asString());
            assertThat(line).as("exported: " + item).isNotNull();
            for (String field : item.propertyNames()) {
                assertThat(line.get(field)).as(field).isEqualTo(item.get(field));
            }
            assertThat(line.get("policySetVersion").isIntegralNumber()).as("policy version of " + item).isTrue();
            assertThat(line.get("workspaceVersion").isIntegralNumber()).isTrue();
        }
        assertThat(lines).isSortedAccordingTo(Comparator.comparing((JsonNode l) -> Instant.parse(l.get("occurredAt").asString()))
                .thenComparing(l -> l.get("id").asString()));
        JsonNode blocked = lines.stream().filter(l -> "rogue-1".equals(l.get("agentId").asString())).findFirst().orElseThrow();
        assertThat(blocked.get("decision").asString()).isEqualTo("block");
        assertThat(blocked.get("policySetVersion").longValue()).as("decided under the policy set that has the policy").isPositive();
        assertThat(lines).anySatisfy(l -> assertThat(l.get("kind").asString()).isEqualTo("kill_switch"));
    }

    @Test
    void theCsvExportHasTheSameRowsInTheSameOrder() throws Exception {
        String query = range(evaluationsFrom, evaluationsTo);
        HttpResponse<String> jsonl = get(exportPath(ws.id(), query), ws.ownerJwt());
        HttpResponse<String> csv = get(exportPath(ws.id(), query + "&format=csv"), ws.ownerJwt());

        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/csv");
        assertThat(csv.headers().firstValue("Content-Disposition").orElseThrow()).endsWith(".csv\"");
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(csv.body())).getRecords();
        List<JsonNode> lines = jsonl.body().lines().map(GatewayJson.MAPPER::readTree).toList();
        assertThat(records).hasSize(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = lines.get(i);
            CSVRecord record = records.get(i);
            assertThat(record.get("id")).isEqualTo(line.get("id").asString());
            assertThat(record.get("payloadExcerpt")).isEqualTo(line.get("payloadExcerpt").isNull() ? "" : line.get("payloadExcerpt").asString());
            assertThat(record.get("reason")).isEqualTo(line.get("reason").asString());
            assertThat(record.get("policySetVersion")).isEqualTo(line.get("policySetVersion").asString());
        }
    }

    @Test
    void theFiltersOfTheAuditQueryApplyToo() throws Exception {
        HttpResponse<String> response = get(exportPath(ws.id(), range(evaluationsFrom, evaluationsTo) + "&agentId=rogue-1&tool=mcp"), ws.ownerJwt());

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> lines = response.body().lines().map(GatewayJson.MAPPER::readTree).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0).get("tool").asString()).isEqualTo("mcp");
        assertThat(lines.get(0).get("agentId").asString()).isEqualTo("rogue-1");
    }

    @Test
    void theCommandWritesTheSameBytesAsTheApi(@TempDir Path dir) throws Exception {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        for (String format : List.of("jsonl", "csv")) {
            Path file = dir.resolve("audit." + format);
            int status = ExportCommand.run(List.of("--workspace", ws.id(), "--from", evaluationsFrom.toString(),
                    "--to", evaluationsTo.toString(), "--format", format, "--out", file.toString(),
                    "--jdbc-url", gateway.jdbcUrl(), "--db-user", gateway.postgresUser(), "--db-password", gateway.postgresPassword()));
            HttpResponse<String> api = get(exportPath(ws.id(), range(evaluationsFrom, evaluationsTo) + "&format=" + format), ws.ownerJwt());

            assertThat(status).isZero();
            assertThat(Files.readString(file)).as(format).isEqualTo(api.body());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ?to=2030-01-01T00:00:00Z                                            | from is required (an ISO-8601 timestamp)
            ?from=2030-01-01T00:00:00Z                                          | to is required (an ISO-8601 timestamp)
            ?from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z&format=xml       | format must be one of: jsonl, csv
            ?from=yesterday&to=2030-02-01T00:00:00Z                             | from must be an ISO-8601 timestamp
            ?from=2030-01-01T00:00:00Z&to=2030-02-30T00:00:00Z                  | to must be an ISO-8601 timestamp
            ?from=2030-02-01T00:00:00Z&to=2030-01-01T00:00:00Z                  | from must be before to
            ?from=2030-01-01T00:00:00Z&to=2030-01-01T00:00:00Z                  | from must be before to
            ?from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z&tool=github      | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            ?from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z&decision=deny    | decision must be one of: allow, block, require_approval
            """)
    void badParametersAre400WithTheDocumentedText(String query, String error) throws Exception {
        assertJsonError(get(exportPath(ws.id(), query), ws.ownerJwt()), 400, error);
    }

    @Test
    void callersWithoutTheRoleGet401Or403() throws Exception {
        String query = range(evaluationsFrom, evaluationsTo);
        assertJsonError(get(exportPath(ws.id(), query), null), 401, "Authentication required");
        assertJsonError(get(exportPath(ws.id(), query), "not-a-jwt"), 401, "Invalid or expired token");
        assertJsonError(get(exportPath("not-a-uuid", query), ws.ownerJwt()), 400, "workspaceId must be a uuid");
        String stranger = GatewayHarness.jwt("stranger-" + ws.id(), "stranger@test.local");
        assertJsonError(get(exportPath(ws.id(), query), stranger), 403, "Admin or owner role required");
        // an unknown workspace looks like one the caller is not admin of, as on every admin read
        assertJsonError(get(exportPath(UUID.randomUUID().toString(), query), ws.ownerJwt()), 403, "Admin or owner role required");

        String memberId = "member-" + ws.id();
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + memberId, ws.ownerJwt(),
                Map.of("email", "member@test.local", "role", "member")).status()).isIn(200, 201);
        await().atMost(Duration.ofSeconds(10)).until(() -> client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/members",
                ws.ownerJwt(), null).rawBody().contains(memberId));
        assertJsonError(get(exportPath(ws.id(), query), GatewayHarness.jwt(memberId, "member@test.local")), 403, "Admin or owner role required");

        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + exportPath(ws.id(), query)))
                .header("Authorization", "Bearer " + ws.ownerJwt()).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertJsonError(post, 405, "Method not allowed");
    }

    /**
     * Two clients that stop reading hold their exports open (the server waits for them instead of
     * buffering the rest); a third export is refused with 429 while they do. When they hang up, their
     * cursors, transactions and pooled connections are released and the gateway serves exports again.
     */
    @Test
    void clientsThatStallOrGoAwayMidStreamHoldNothingOnceGone() throws Exception {
        TestWorkspace big = GatewayHarness.newWorkspace();
        insertBulkRows(big.id());
        String path = exportPath(big.id(), range(BULK_START, BULK_START.plus(Duration.ofDays(1))));
        awaitAdminReads(big);

        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket socket = openExport(path, big.ownerJwt());
                stalled.add(socket);
                assertThat(readSome(socket.getInputStream(), 2048)).startsWith("HTTP/1.1 200");
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(runningExports()).as("both exports wait for their clients").isEqualTo(2));

            HttpResponse<String> third = get(path, big.ownerJwt());
            assertJsonError(third, 429, "Too many audit exports running; retry later");
            assertThat(third.headers().firstValue("Content-Disposition")).as("an error is not a download").isEmpty();
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(runningExports()).isZero());

        HttpResponse<String> after = get(exportPath(big.id(), range(BULK_START, BULK_START.plusSeconds(1))), big.ownerJwt());
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.body().lines().count()).isEqualTo(1_000);
        HttpResponse<String> whole = get(path, big.ownerJwt());
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.body().lines().count()).isEqualTo(BULK_ROWS);
        assertThat(client().send("GET", "/admin/v1/workspaces/" + big.id() + "/audit-log?limit=5", big.ownerJwt(), null).status()).isEqualTo(200);
    }

    private static void assertJsonError(HttpResponse<String> response, int status, String error) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode body = GatewayJson.MAPPER.readTree(response.body());
        assertThat(body.get("ok").asBoolean()).isFalse();
        assertThat(body.get("error").asString()).isEqualTo(error);
        assertThat(body.get("correlationId").asString()).isNotBlank();
    }

    /** Backends inside an export transaction (named by AuditExport for pg_stat_activity). */
    private static int runningExports() throws Exception {
        try (var c = GatewayHarness.db(); var s = c.prepareStatement("select count(*) from pg_stat_activity where application_name = ?")) {
            s.setString(1, AuditExport.APPLICATION_NAME);
            var rs = s.executeQuery();
            rs.next();
            return rs.getInt(1);
        }
    }

    /** A raw HTTP/1.1 request on a socket with a small receive buffer, so that not reading stalls the server. */
    private static Socket openExport(String path, String jwt) throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        URI base = URI.create(GatewayHarness.gateway().baseUrl());
        socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAuthorization: Bearer " + jwt
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private static String readSome(InputStream in, int bytes) throws Exception {
        byte[] buffer = new byte[bytes];
        int read = 0;
        while (read < bytes) {
            int n = in.read(buffer, read, bytes - read);
            if (n < 0) {
                break;
            }
            read += n;
        }
        return new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
    }

    private static void awaitAdminReads(TestWorkspace workspace) {
        await().atMost(Duration.ofSeconds(10)).until(() -> client().send("GET",
                "/admin/v1/workspaces/" + workspace.id() + "/audit-log?limit=1", workspace.ownerJwt(), null).status() == 200);
    }

    /** {@value #BULK_ROWS} rows a millisecond apart from {@link #BULK_START}, each with a 400-byte payload excerpt. */
    private static void insertBulkRows(String workspaceId) throws Exception {
        try (var c = GatewayHarness.db(); var s = c.prepareStatement("""
                insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind, tool,
                    action, risk_level, decision, reason, agent_id, source, payload_excerpt, payload_truncated,
                    payload_bytes, policy_set_version, workspace_version)
                select gen_random_uuid(), ?::uuid, gen_random_uuid(), 'bulk-' || i, gen_random_uuid()::text,
                    ?::timestamptz + i * interval '1 millisecond', 'action_evaluated', 'chat', 'message.send', 'low',
                    'allow', 'bulk', 'agent-' || (i % 10), 'evaluate', '{"text":"' || repeat('x', 390) || '"}', false,
                    401, 1, 1
                from generate_series(0, ? - 1) as i
                """)) {
            s.setString(1, workspaceId);
            s.setString(2, BULK_START.toString());
            s.setInt(3, BULK_ROWS);
            assertThat(s.executeUpdate()).isEqualTo(BULK_ROWS);
        }
    }
}
