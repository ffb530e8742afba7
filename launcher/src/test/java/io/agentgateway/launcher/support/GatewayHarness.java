package io.agentgateway.launcher.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;

/**
 * The whole embedded gateway, started once per test JVM exactly as the launcher starts it (real
 * broker, real PostgreSQL, every module), plus a real SMTP server (GreenMail) the notifier sends to.
 * Tests isolate themselves by creating their own workspace.
 */
public final class GatewayHarness {
    /** Names that resolve to addresses the egress policy refuses, with no DNS server (EgressEndToEndTest). */
    public static final String EGRESS_TEST_HOSTS = "metadata-alias.test=169.254.169.254,rebind.test=127.0.0.1";
    /** The console's operator, who signs in at the OpenID provider (ConsoleAdminBrowserTest). */
    public static final String CONSOLE_OPERATOR = "console-operator";
    public static final Duration REPLY_TIMEOUT = Duration.ofSeconds(3);

    private static EmbeddedGateway gateway;
    private static GreenMail smtp;
    private static RecordingUpstream upstream;
    private static OAuthTokenEndpoint tokenEndpoint;
    private static InMemorySpanExporter spans;

    private GatewayHarness() {}

    public static synchronized EmbeddedGateway gateway() {
        if (gateway == null) {
            try {
                Path dataDir = Files.createTempDirectory("gateway-e2e-");
                int smtpPort = FreePorts.pick();
                smtp = new GreenMail(new ServerSetup(smtpPort, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
                smtp.start();
                upstream = RecordingUpstream.start();
                tokenEndpoint = OAuthTokenEndpoint.start();
                Map<String, String> properties = new java.util.LinkedHashMap<>(tokenEndpoint.gatewayProperties());
                properties.putAll(Map.of(
                        "gateway.ingress.reply-timeout", "PT" + REPLY_TIMEOUT.toSeconds() + "S",
                        "spring.mail.host", "127.0.0.1",
                        "spring.mail.port", Integer.toString(smtpPort),
                        "gateway.notifier.initial-backoff", "PT0.2S",
                        "gateway.decision.payload-excerpt-bytes", "4096",
                        // low enough for WorkspaceLimitsEndToEndTest to reach, far above what other tests use
                        "gateway.decision.limits.repositories-per-connection", "20",
                        // held HTTP requests of internal_api go here once approved; code_host has no upstream
                        "gateway.executor.http-upstreams.internal_api", upstream.baseUrl() + "/internal",
                        // the proxy's 504 is tested against an upstream that takes longer than this
                        "gateway.proxy.upstream-timeout", "PT1S"));
                // a change of a webhook connection answers this long after the read model shows it (the
                // index answers kept by the webhook verifier have expired by then): short, for 200-round races
                properties.put("gateway.webhooks.candidate-index-ttl", "PT0.05S");
                // the request rate limits would throttle the suites that send thousands of requests with one key;
                // FairUseTest tests them on an ingress of its own
                properties.put("gateway.limits.key-rate", "0");
                // names that resolve to what the egress policy refuses, with no DNS server (EgressEndToEndTest)
                properties.put("gateway.egress.hosts", EGRESS_TEST_HOSTS);
                // the suites send many unmatched webhook deliveries from one address: recording them is not rate
                // limited here (WebhooksEndToEndTest tests the limits on RestrictedReplica)
                properties.put("gateway.webhooks.unmatched-rate", "0");
                properties.put("gateway.webhooks.unmatched-global-rate", "0");
                properties.put("gateway.limits.workspace-rate", "0");
                // the organization's OpenID provider (the console's sign-in, the admin API's IdP tokens): read only when
                // somebody signs in, started by the suites that do (ConsoleIdentityProvider)
                properties.putAll(ConsoleIdentityProvider.gatewayProperties());
                // the operators: the launcher's own (its JWTs create the tests' workspaces) and the console's, who signs in
                // at the OpenID provider (ConsoleAdminBrowserTest)
                properties.put("gateway.auth.operators", EmbeddedGateway.DEFAULT_OPERATOR + "," + CONSOLE_OPERATOR);
                // MCP tasks: clients (the TypeScript SDK honours it) poll a held call's task this often
                properties.put("gateway.mcp.tasks.poll-interval", "PT0.5S");
                // small pages, so that McpTasksEndToEndTest pages through a few tasks
                properties.put("gateway.mcp.tasks.list-page-size", "2");
                // tracing is on in every module, as an operator turns it on, but only a request that arrives with a sampled
                // traceparent is recorded (TracingEndToEndTest sends some): every other test runs the traced code paths
                // without keeping their spans
                // the audit log's checkpoints within seconds of an entry (EvidenceEndToEndTest waits for them)
                properties.put("gateway.evidence.checkpoint-interval", "PT1S");
                spans = InMemorySpanExporter.create();
                OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                        .setSampler(Sampler.parentBased(Sampler.alwaysOff()))
                        .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
                gateway = EmbeddedGateway.start(LauncherSettings.ephemeral(dataDir), properties, GatewayTracing.of(sdk, false));
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    gateway.close();
                    sdk.close();
                    smtp.stop();
                    upstream.close();
                    tokenEndpoint.close();
                }, "stop-e2e-gateway"));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return gateway;
    }

    /** Every span of the requests that came with a sampled traceparent (and of what they caused). */
    public static InMemorySpanExporter spans() {
        gateway();
        return spans;
    }

    public static GreenMail smtp() {
        gateway();
        return smtp;
    }

    /** A JDK HTTP/1.1 client (what the proxy's and webhooks' senders speak) that gives up connecting after 5 s. */
    public static java.net.http.HttpClient http11Client() {
        return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Adds a member of the role, named and addressed after it ({@code <role>-<workspace>@test.local}). @return the email */
    public static String addMember(TestWorkspace ws, String role) {
        String email = role + "-" + ws.id() + "@test.local";
        var added = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + role + "-" + ws.id(), ws.ownerJwt(),
                Map.of("email", email, "role", role));
        org.assertj.core.api.Assertions.assertThat(added.status()).isIn(200, 201);
        return email;
    }

    /** Distinct emails addressed to {@code address}: GreenMail stores one copy per recipient. */
    public static List<MimeMessage> mailTo(String address) {
        Map<String, MimeMessage> byMessageId = new LinkedHashMap<>();
        for (MimeMessage m : smtp().getReceivedMessages()) {
            try {
                if (Arrays.stream(m.getRecipients(Message.RecipientType.TO)).anyMatch(a -> a.toString().contains(address))) {
                    byMessageId.putIfAbsent(m.getMessageID(), m);
                }
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }
        return List.copyOf(byMessageId.values());
    }

    public static RecordingUpstream upstream() {
        gateway();
        return upstream;
    }

    public static OAuthTokenEndpoint tokenEndpoint() {
        gateway();
        return tokenEndpoint;
    }

    public static GatewayHttpClient client() {
        return new GatewayHttpClient(gateway().baseUrl());
    }

    public static Connection db() throws SQLException {
        EmbeddedGateway g = gateway();
        return DriverManager.getConnection(g.jdbcUrl(), g.postgresUser(), g.postgresPassword());
    }

    /** An audit row as the deadline and crash tests look at it. */
    public record AuditRow(String auditLogId, String decision, String approvalRequestId, boolean undelivered) {}

    /** The audit rows of one agent in a workspace, oldest first. */
    public static List<AuditRow> auditRows(String workspaceId, String agentId) throws SQLException {
        try (Connection c = db();
             PreparedStatement s = c.prepareStatement("select id::text, decision, approval_request_id::text, undelivered"
                     + " from audit_log where workspace_id = ?::uuid and agent_id = ? order by occurred_at")) {
            s.setString(1, workspaceId);
            s.setString(2, agentId);
            List<AuditRow> rows = new java.util.ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AuditRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4)));
                }
            }
            return rows;
        }
    }

    public static String jwt(String userId, String email) {
        return DevJwts.sign(gateway().secrets().jwtSecret(), userId, email, Duration.ofHours(1));
    }

    /** A fresh workspace with its owner and an API key of every scope. */
    public record TestWorkspace(String id, String ownerId, String ownerEmail, String ownerJwt, String apiKey) {}

    public static TestWorkspace newWorkspace() {
        String ownerId = "owner-" + UUID.randomUUID();
        String email = ownerId + "@test.local";
        String jwt = jwt(ownerId, email);
        var created = WorkspaceBootstrap.create(client(), gateway().operatorJwt(), jwt, "ws " + ownerId, List.of("evaluate", "mcp", "proxy"));
        // the admin API's reads (audit log, approvals, back-tests) find the owner in the read model, which the
        // projector writes after the stream answered: a test that reads at once must not race it
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> client()
                .send("GET", "/admin/v1/workspaces/" + created.workspaceId() + "/approvals?limit=1", jwt, null).status() == 200);
        return new TestWorkspace(created.workspaceId(), ownerId, email, jwt, created.apiKey());
    }

    public static GatewayHttpClient.Response evaluate(TestWorkspace ws, Map<String, Object> body) {
        return client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), body);
    }

    public static Map<String, Object> action(String tool, String action, String risk) {
        return Map.of("tool", tool, "action", action, "riskLevel", risk, "agentId", "agent-1");
    }

    public static GatewayHttpClient.Response killSwitch(TestWorkspace ws, String action, String tool) {
        Map<String, Object> body = tool == null
                ? Map.of("workspaceId", ws.id(), "action", action)
                : Map.of("workspaceId", ws.id(), "action", action, "tool", tool);
        return client().send("POST", "/functions/v1/kill-switch", ws.ownerJwt(), body);
    }
}
