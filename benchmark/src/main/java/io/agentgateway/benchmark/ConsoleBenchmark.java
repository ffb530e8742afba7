package io.agentgateway.benchmark;

import io.agentgateway.benchmark.data.AuditRowsFiller;
import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.measure.CpuTime;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The console at scale: the embedded default's PostgreSQL filled with {@code bench.consoleApprovals} (10,000) open
 * approvals and {@code bench.consoleAuditRows} (1,000,000) audit rows of one workspace (bulk inserts into the read
 * model, as the projector would have written them), then, signed in as the workspace's owner (a one-time link):
 * <ol>
 *   <li>the inbox's first page ({@code GET /inbox/items}, the 50 soonest to expire of the 10,000) and two filtered audit
 *       pages ({@code GET /audit/rows}: an agent and a decision; a tool and a risk), each {@code bench.consoleRequests}
 *       times one after another on loopback after a warm-up: p50/p95/p99/max, and the CPU per request of the gateway's
 *       JVM and of PostgreSQL (its postmaster's children, from /proc);</li>
 *   <li>an approval made elsewhere (the admin API) until an open inbox's event stream ({@code GET /events}) says so,
 *       {@code bench.consoleLiveRounds} times: p50/p95/max.</li>
 * </ol>
 * The targets: the pages ≤ 200 ms p95, the live update ≤ 1 s.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g
 * -XX:MaxTenuringThreshold=2 -Dloader.main=io.agentgateway.benchmark.ConsoleBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}.
 */
public final class ConsoleBenchmark {
    private static final Instant AUDIT_START = Instant.parse("2030-01-01T00:00:00Z");
    private static final String OWNER = "bench-owner";

    private ConsoleBenchmark() {}

    public static void main(String[] args) throws Exception {
        int approvals = Integer.getInteger("bench.consoleApprovals", 10_000);
        int auditRows = Integer.getInteger("bench.consoleAuditRows", 1_000_000);
        int requests = Integer.getInteger("bench.consoleRequests", 200);
        int liveRounds = Integer.getInteger("bench.consoleLiveRounds", 20);
        Path data = Files.createTempDirectory("gateway-console-bench-");
        try (EmbeddedGateway gateway = EmbeddedGateway.start(LauncherSettings.ephemeral(data), BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), OWNER, "owner@bench.local", Duration.ofHours(2));
            var created = WorkspaceBootstrap.create(admin, gateway.operatorJwt(), jwt, "console benchmark", List.of("evaluate"));
            UUID workspace = UUID.fromString(created.workspaceId());
            try (Connection db = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword())) {
                long fill = System.nanoTime();
                AuditRowsFiller.fill(db, workspace, AUDIT_START, auditRows);
                fillApprovals(db, workspace, approvals);
                System.out.printf(Locale.ROOT, "%n%,d audit rows and %,d open approvals inserted in %.1f s%n", auditRows,
                        approvals, (System.nanoTime() - fill) / 1e9);
            }
            awaitOwner(admin, workspace, jwt);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER).build();
            String cookie = signIn(http, gateway);
            long postmaster = postmasterPid(gateway.jdbcUrl());

            Map<String, String> pages = new LinkedHashMap<>();
            pages.put("inbox, first page of " + approvals, "/inbox/items");
            pages.put("audit, agent + decision", "/audit/rows?workspace=" + workspace + "&agentId=agent-7&decision=require_approval");
            pages.put("audit, tool + risk", "/audit/rows?workspace=" + workspace + "&tool=mcp&risk=critical");
            pages.put("audit, time range + source", "/audit/rows?workspace=" + workspace + "&source=evaluate&from="
                    + AUDIT_START.plusSeconds(500) + "&to=" + AUDIT_START.plusSeconds(600));
            // the worst case of a filter pair: an agent that never got that decision (every row of the agent read)
            pages.put("audit, agent + no match", "/audit/rows?workspace=" + workspace + "&agentId=agent-7&decision=block");
            System.out.printf(Locale.ROOT, "%n%-32s %9s %9s %9s %9s %14s %14s%n", "page (sequential, loopback)", "p50 ms",
                    "p95 ms", "p99 ms", "max ms", "JVM CPU ms/req", "PG CPU ms/req");
            for (Map.Entry<String, String> page : pages.entrySet()) {
                for (int i = 0; i < Math.max(20, requests / 5); i++) {
                    get(http, gateway.baseUrl() + page.getValue(), cookie);
                }
                Histogram latency = new Histogram(3);
                double jvmBefore = CpuTime.jvmSeconds();
                long pgBefore = postgresTicks(postmaster);
                for (int i = 0; i < requests; i++) {
                    long start = System.nanoTime();
                    get(http, gateway.baseUrl() + page.getValue(), cookie);
                    latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
                }
                double jvmMs = (CpuTime.jvmSeconds() - jvmBefore) * 1000 / requests;
                double pgMs = (postgresTicks(postmaster) - pgBefore) * 10.0 / requests;
                System.out.printf(Locale.ROOT, "%-32s %9.1f %9.1f %9.1f %9.1f %14.2f %14.2f%n", page.getKey(),
                        latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(95) / 1000.0,
                        latency.getValueAtPercentile(99) / 1000.0, latency.getMaxValue() / 1000.0, jvmMs, pgMs);
            }
            liveUpdates(gateway, admin, http, cookie, workspace, created.apiKey(), jwt, liveRounds);
        }
        System.exit(0);
    }

    /** Open approvals as the projector writes them, each with the audit row that held it, expiring over the next hours. */
    private static void fillApprovals(Connection db, UUID workspace, int count) throws Exception {
        try (PreparedStatement audit = db.prepareStatement("""
                insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind, tool,
                    action, risk_level, risk_classification, decision, reason, approval_request_id, agent_id, agent_name,
                    source, payload_excerpt, policy_set_version, workspace_version)
                select md5('audit-' || i)::uuid, ?, gen_random_uuid(), 'bench-approval-' || i, md5('corr-' || i)::uuid::text,
                    now(), 'action_evaluated', 'code_host', 'pull_request.merge', 'high', 'server_classified',
                    'require_approval', 'No policy matched; workspace default for high risk is require_approval',
                    md5('approval-' || i)::uuid, 'agent-' || (i % 50), 'Bench Agent ' || (i % 50), 'proxy',
                    '{"merge_method":"squash"}', 1, 1
                from generate_series(1, ?) as i
                """);
             PreparedStatement approval = db.prepareStatement("""
                insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                    agent_id, call_digest, status, created_at, expires_at, updated_at, held_call_kind, call_view)
                select md5('approval-' || i)::uuid, ?, md5('audit-' || i)::uuid, md5('corr-' || i)::uuid::text, 'code_host',
                    'pull_request.merge', 'high', 'agent-' || (i % 50), encode(sha256(('call-' || i)::bytea), 'hex'),
                    'pending', now(), now() + interval '1 hour' + i * interval '1 second', now(), 'http_request',
                    jsonb_build_object('method', 'PUT', 'path', '/repos/acme/api/pulls/' || i || '/merge',
                        'bodyExcerpt', '{"merge_method":"squash"}', 'bodyBytes', 26, 'truncated', false, 'redacted', false)
                from generate_series(1, ?) as i
                """);
             Statement analyze = db.createStatement()) {
            audit.setObject(1, workspace);
            audit.setInt(2, count);
            audit.executeUpdate();
            approval.setObject(1, workspace);
            approval.setInt(2, count);
            approval.executeUpdate();
            analyze.execute("analyze approval_requests");
            analyze.execute("analyze audit_log");
        }
    }

    /**
     * Approvals made through the admin API while an inbox's event stream is open: the time from sending the review to
     * the stream's {@code approvals} event (which comes once the read model shows the review).
     */
    private static void liveUpdates(EmbeddedGateway gateway, GatewayHttpClient admin, HttpClient http, String cookie,
                                    UUID workspace, String apiKey, String jwt, int rounds) throws Exception {
        BlockingQueue<Long> events = new LinkedBlockingQueue<>();
        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl()
                        + "/events?workspace=" + workspace)).header("Cookie", "agw_session=" + cookie).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.equals("event:approvals")) {
                        events.add(System.nanoTime());
                    }
                }
            } catch (IOException ended) {
                // the benchmark is over
            }
        }, "bench-sse");
        reader.setDaemon(true);
        reader.start();
        Histogram delay = new Histogram(3);
        for (int round = 0; round < rounds + 3; round++) {
            var held = admin.send("POST", "/functions/v1/evaluate-action", apiKey, Map.of("tool", "docs",
                    "action", "page.publish", "riskLevel", "high", "agentId", "live-bench"));
            String approvalId = held.text("approvalRequestId");
            // the opening's own event first (the inbox would show it), then quiet
            events.poll(10, TimeUnit.SECONDS);
            Thread.sleep(300);
            events.clear();
            long sent = System.nanoTime();
            var approved = admin.send("POST", "/admin/v1/workspaces/" + workspace + "/approvals/" + approvalId + "/approve",
                    jwt, Map.of("reason", "bench"));
            if (approved.status() != 200) {
                throw new IllegalStateException("approve answered " + approved.status() + ": " + approved.rawBody());
            }
            Long seen = events.poll(10, TimeUnit.SECONDS);
            if (seen == null) {
                throw new IllegalStateException("no live event within 10 s of an approval");
            }
            if (round >= 3) { // the first rounds warm up
                delay.recordValue(Math.max(1, (seen - sent) / 1_000));
            }
        }
        stream.body().close();
        System.out.printf(Locale.ROOT, "%nan approval made through the admin API, until an open inbox's stream says so (%d rounds):"
                        + " p50 %.0f ms, p95 %.0f ms, max %.0f ms%n", rounds, delay.getValueAtPercentile(50) / 1000.0,
                delay.getValueAtPercentile(95) / 1000.0, delay.getMaxValue() / 1000.0);
    }

    private static String signIn(HttpClient http, EmbeddedGateway gateway) throws Exception {
        String link = gateway.consoleSignInLink(OWNER, "owner@bench.local");
        HttpResponse<Void> signedIn = http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.discarding());
        String setCookie = signedIn.headers().firstValue("set-cookie").orElseThrow(() -> new IllegalStateException("no session"));
        return setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    }

    private static void get(HttpClient http, String url, String cookie) throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", "agw_session=" + cookie)
                .header("HX-Request", "true").build(), HttpResponse.BodyHandlers.ofString());
        if (page.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + page.statusCode() + ": " + page.body());
        }
    }

    private static void awaitOwner(GatewayHttpClient admin, UUID workspace, String jwt) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (admin.send("GET", "/admin/v1/workspaces/" + workspace + "/approvals?limit=1", jwt, null).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the workspace's owner was not projected within 10 s");
    }

    /** The embedded PostgreSQL's postmaster (the process started with {@code -p <port of the JDBC URL>}), or 0. */
    private static long postmasterPid(String jdbcUrl) {
        Matcher port = Pattern.compile(":(\\d+)/").matcher(jdbcUrl);
        if (!port.find()) {
            return 0;
        }
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String[] argv = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
                    if (argv.length > 2 && argv[0].endsWith("/postgres") && Arrays.asList(argv).contains(port.group(1))) {
                        return Long.parseLong(process.getFileName().toString());
                    }
                } catch (Exception gone) {
                    // ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
    }

    /** CPU ticks of PostgreSQL: the postmaster with its ended backends, and its live children. */
    private static long postgresTicks(long postmaster) {
        if (postmaster == 0) {
            return 0;
        }
        long ticks = CpuTime.ticksWithReapedChildrenOf(postmaster);
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String stat = Files.readString(process.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (Long.parseLong(fields[1]) == postmaster) {
                        ticks += CpuTime.ticksIn(stat);
                    }
                } catch (Exception gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException e) {
            return ticks;
        }
        return ticks;
    }
}
