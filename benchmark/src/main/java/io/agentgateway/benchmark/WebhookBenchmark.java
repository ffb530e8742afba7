package io.agentgateway.benchmark;

import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.load.JitWarmup;
import io.agentgateway.benchmark.load.LoadRunner;
import io.agentgateway.benchmark.load.WebhookLoadClient;
import io.agentgateway.benchmark.measure.ClosedLoopCpu;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Inbound webhooks: verified code-host deliveries (a realistic push payload of ~2 KiB, HMAC-SHA256
 * over the raw body, matched to a workspace, deduplicated, evaluated against its policies, recorded)
 * through the embedded default in this JVM. Prints an open loop at a fixed rate (latency from the
 * intended send time; target p99 ≤ 50 ms at 200/s), a closed loop (target ≥ 1,000 verified
 * deliveries/s), and checks that every accepted delivery became exactly one {@code webhook_events} row.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2
 * -Dloader.main=io.agentgateway.benchmark.WebhookBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}. Options: {@code bench.seconds} (20),
 * {@code bench.rate} (200), {@code bench.clients} (32), {@code bench.warmupSeconds} (60, the least warm-up: it goes on until the JIT is quiet, at most five minutes).
 */
public final class WebhookBenchmark {
    private static final String PATH = "/functions/v1/webhook-code-host";

    private WebhookBenchmark() {}

    public static void main(String[] args) throws Exception {
        Duration phase = Duration.ofSeconds(Integer.getInteger("bench.seconds", 20));
        int rate = Integer.getInteger("bench.rate", 200);
        int clients = Integer.getInteger("bench.clients", 32);
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmupSeconds", 60));
        Path dataDir = Files.createTempDirectory("gateway-webhook-bench-");
        try (EmbeddedGateway gateway = EmbeddedGateway.start(LauncherSettings.ephemeral(dataDir), BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            String workspace = createWorkspace(admin, gateway.operatorJwt(), jwt);
            String secret = "whsec-" + UUID.randomUUID();
            GatewayHttpClient.Response put = admin.send("PUT", "/admin/v1/workspaces/" + workspace + "/tools/code_host", jwt,
                    Map.of("config", Map.of("repos", List.of("bench-org/api"), "org", "bench-org"), "webhook_secret", secret));
            if (put.status() != 200) {
                throw new IllegalStateException("connecting the code host answered " + put.status() + ": " + put.rawBody());
            }
            byte[] body = pushPayload();
            try (WebhookLoadClient load = new WebhookLoadClient(gateway.baseUrl(), secret, Math.max(clients, 64))) {
                LoadRunner.Call deliver = load.deliver(PATH, body);
                awaitProjected(deliver);
                System.out.printf(Locale.ROOT, "%nwarming up until the JIT is quiet (at least %d s, closed loop, %d clients)...%n",
                        warmup.toSeconds(), clients);
                JitWarmup.untilQuiet(deliver, clients, 0.10, warmup, Duration.ofMinutes(5));
                LoadRunner.awaitDrained(deliver);

                LatencyRecorder open = LoadRunner.openLoop(deliver, rate, phase);
                LoadRunner.awaitDrained(deliver);
                ClosedLoopCpu closed = ClosedLoopCpu.measure(deliver, clients, phase, ClosedLoopCpu.embeddedIn(dataDir));
                LoadRunner.awaitDrained(deliver);

                System.out.printf(Locale.ROOT, "%nverified code-host deliveries (push, %,d-byte body), payload %s%n", body.length, PATH);
                System.out.printf(Locale.ROOT, "%-40s %8s %8s %8s %8s %8s %8s%n", "open loop", "rate/s", "calls", "failed",
                        "p50 ms", "p99 ms", "max ms");
                System.out.printf(Locale.ROOT, "%-40s %8d %8d %8d %8.2f %8.2f %8.2f   (target p99 <= 50 ms)%n",
                        "webhook-code-host, at-least-once", rate, open.count(), open.failures(), open.percentileMillis(50),
                        open.percentileMillis(99), open.percentileMillis(100));
                System.out.printf(Locale.ROOT, "closed loop, %d clients: %s   (target >= 1,000 verified deliveries/s)%n",
                        clients, closed.describe("verified deliveries"));
                long accepted = load.accepted();
                long[] stored = awaitStored(gateway, workspace, accepted);
                // a call that timed out (504) may still have been recorded: rows >= accepted, never a delivery twice
                System.out.printf(Locale.ROOT, "deliveries sent %,d, accepted %,d; webhook_events rows of the workspace %,d,"
                        + " delivery ids stored twice %,d%s%n", load.sent(), accepted, stored[0], stored[1],
                        stored[0] >= accepted && stored[1] == 0 ? "  (each recorded delivery exactly once)" : "  MISMATCH");
            }
        }
        System.exit(0);
    }

    /** The first commands can time out while a loaded machine still starts the decision stream's tasks: retry. */
    private static String createWorkspace(GatewayHttpClient admin, String operatorJwt, String jwt) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return WorkspaceBootstrap.create(admin, operatorJwt, jwt, "webhook benchmark", List.of("evaluate")).workspaceId();
            } catch (IllegalStateException e) {
                if (attempt == 10) {
                    throw e;
                }
                System.out.println("workspace not created yet (" + e.getMessage() + "), retrying");
                Thread.sleep(2000);
            }
        }
    }

    /** The connection reaches the read model asynchronously; the first accepted delivery says it is there. */
    private static void awaitProjected(LoadRunner.Call deliver) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (Boolean.TRUE.equals(deliver.get().handle((ok, e) -> e == null && Boolean.TRUE.equals(ok)).join())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no delivery was accepted within 30 s");
    }

    /** {rows, rows beyond one per delivery id}, once the rows have caught up with the accepted deliveries. */
    private static long[] awaitStored(EmbeddedGateway gateway, String workspace, long accepted) throws Exception {
        try (Connection db = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword());
             PreparedStatement count = db.prepareStatement(
                     "select count(*), count(*) - count(distinct delivery_id) from webhook_events where workspace_id = ?::uuid")) {
            count.setString(1, workspace);
            long[] stored = {0, 0};
            for (int i = 0; i < 300; i++) {
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    stored = new long[] {rs.getLong(1), rs.getLong(2)};
                }
                if (stored[0] >= accepted) {
                    Thread.sleep(1000); // the stragglers of timed-out calls
                    try (ResultSet rs = count.executeQuery()) {
                        rs.next();
                        stored = new long[] {rs.getLong(1), rs.getLong(2)};
                    }
                    break;
                }
                Thread.sleep(100);
            }
            return stored;
        }
    }

    private static byte[] pushPayload() throws java.io.IOException {
        try (var in = WebhookBenchmark.class.getResourceAsStream("/webhooks/code-host-push.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("{{org}}", "bench-org").replace("{{repo_name}}", "api").getBytes(StandardCharsets.UTF_8);
        }
    }
}
