package io.agentgateway.benchmark;

import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.gateway.GatewayProcesses;
import io.agentgateway.benchmark.load.JitWarmup;
import io.agentgateway.benchmark.load.LoadRunner;
import io.agentgateway.benchmark.load.NettyLoadClient;
import io.agentgateway.benchmark.measure.ClosedLoopCpu;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import io.agentgateway.schemas.GatewayJson;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * What the outbound proxy adds to a call: a {@code GET} through {@code /functions/v1/gateway-proxy/code_host/...}
 * (API key, read-model checks, one evaluation through the decision stream, the forward and the streamed
 * answer) against the same local upstream called directly, in one run on the embedded default. Prints
 * p50/p99 of both at {@code bench.proxyRate} (200/s, open loop, latency from the intended start), the
 * overhead, and the most proxied requests per second {@code bench.clients} (64) closed-loop callers
 * sustain, next to evaluate-action's figures in the same run (the decision alone, without the proxy's
 * key and connection reads, sealing and forward: on a shared machine it shows what the machine gives a
 * decision at that moment). Targets (docs/benchmarks.md): overhead at most 5 ms at p50 and 25 ms at p99 at 200/s; at
 * least 1,000 proxied requests/s on the 2-core machine.
 *
 * <p>The upstream is a Reactor Netty server on its own single event-loop thread answering a small JSON
 * body with a {@code Link} header, like a code host's issue list.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2
 * -Dloader.main=io.agentgateway.benchmark.ProxyBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}
 */
public final class ProxyBenchmark {
    private static final String UPSTREAM_PATH = "/repos/acme/api/issues?state=open&per_page=2";
    private static final byte[] UPSTREAM_BODY = ("[{\"id\":1,\"number\":42,\"title\":\"Found a bug\",\"state\":\"open\"},"
            + "{\"id\":2,\"number\":43,\"title\":\"Another one\",\"state\":\"open\"}]").getBytes(StandardCharsets.UTF_8);

    private ProxyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = Integer.getInteger("bench.seconds", 20);
        int rate = Integer.getInteger("bench.proxyRate", 200);
        int clients = Integer.getInteger("bench.clients", 64);
        Duration phase = Duration.ofSeconds(seconds);
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmupSeconds", 60));

        Path dataDir = Files.createTempDirectory("gateway-proxy-bench-");
        LauncherSettings settings = new LauncherSettings(dataDir, Optional.empty(), Optional.empty(), "postgres", "postgres",
                0, 0, 0, false, false);
        LoopResources upstreamLoop = LoopResources.create("bench-upstream", 1, true);
        DisposableServer upstream = HttpServer.create().host("127.0.0.1").port(0).runOn(upstreamLoop)
                .handle((request, response) -> response
                        .header("Content-Type", "application/json; charset=utf-8")
                        .header("Link", "<https://upstream.example/repos/acme/api/issues?page=2>; rel=\"next\"")
                        .header("Content-Length", Integer.toString(UPSTREAM_BODY.length))
                        .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(UPSTREAM_BODY))))
                .bindNow();
        String upstreamUrl = "http://127.0.0.1:" + upstream.port();
        try (EmbeddedGateway gateway = EmbeddedGateway.start(settings, BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient http = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            var ws = WorkspaceBootstrap.create(http, gateway.operatorJwt(), jwt, "proxy benchmark", List.of("proxy", "evaluate"));
            var connected = http.send("PUT", "/admin/v1/workspaces/" + ws.workspaceId() + "/tools/code_host", jwt, Map.of(
                    "config", Map.of("access_token", "ghp_benchmarktoken"), "base_url", upstreamUrl));
            if (connected.status() != 200) {
                throw new IllegalStateException("could not connect the code host: " + connected.rawBody());
            }
            try (NettyLoadClient load = new NettyLoadClient(gateway.baseUrl(), ws.apiKey(), Math.max(clients, 256));
                 NettyLoadClient direct = new NettyLoadClient(upstreamUrl, "unused", Math.max(clients, 256))) {
                LoadRunner.Call proxied = load.get("/functions/v1/gateway-proxy/code_host" + UPSTREAM_PATH, "X-Agent-Id", "bench-agent");
                LoadRunner.Call straight = direct.get(UPSTREAM_PATH);
                // the same decision without the proxy's own work: what the machine gives a decision right now
                LoadRunner.Call decisionOnly = load.post("/functions/v1/evaluate-action", GatewayJson.MAPPER.writeValueAsBytes(Map.of(
                        "tool", "code_host", "action", "read", "riskLevel", "low", "agentId", "bench-agent")));
                awaitConnection(proxied);

                System.out.printf(Locale.ROOT, "warm-up: closed loops of 16 callers, direct for %d s, proxied until the JIT is quiet ...%n",
                        warmup.toSeconds());
                LoadRunner.closedLoopPerSecond(straight, 16, warmup);
                JitWarmup.untilQuiet(proxied, 16, 0.10, warmup, Duration.ofMinutes(5));
                LoadRunner.awaitDrained(proxied);

                LatencyRecorder directRun = LoadRunner.openLoop(straight, rate, phase);
                LatencyRecorder decisionRun = LoadRunner.openLoop(decisionOnly, rate, phase);
                LoadRunner.awaitDrained(decisionOnly);
                LatencyRecorder proxiedRun = LoadRunner.openLoop(proxied, rate, phase);
                LoadRunner.awaitDrained(proxied);
                GatewayProcesses processes = ClosedLoopCpu.embeddedIn(dataDir);
                ClosedLoopCpu directMax = ClosedLoopCpu.measure(straight, clients, phase, processes);
                ClosedLoopCpu decisionMax = ClosedLoopCpu.measure(decisionOnly, clients, phase, processes);
                LoadRunner.awaitDrained(proxied);
                ClosedLoopCpu proxiedMax = ClosedLoopCpu.measure(proxied, clients, phase, processes);

                System.out.printf(Locale.ROOT, "%nGET %s, open loop at %d/s for %d s each (latency from the intended start):%n",
                        UPSTREAM_PATH, rate, seconds);
                print("direct to the upstream", directRun);
                print("evaluate-action (ref.)", decisionRun);
                print("through gateway-proxy", proxiedRun);
                System.out.printf(Locale.ROOT, "  proxy overhead: p50 %+.2f ms (target <= 5), p99 %+.2f ms (target <= 25)%n",
                        proxiedRun.percentileMillis(50) - directRun.percentileMillis(50),
                        proxiedRun.percentileMillis(99) - directRun.percentileMillis(99));
                System.out.printf(Locale.ROOT, "%nclosed loop, %d callers, %d s each:%n", clients, seconds);
                System.out.printf(Locale.ROOT, "  direct to the upstream  %s%n", directMax.describe("req"));
                System.out.printf(Locale.ROOT, "  evaluate-action (ref.)  %s%n", decisionMax.describe("req"));
                System.out.printf(Locale.ROOT, "  through gateway-proxy   %s (target >= 1,000 req/s)%n", proxiedMax.describe("req"));
            }
        } finally {
            upstream.disposeNow();
            upstreamLoop.disposeLater().block(Duration.ofSeconds(5));
        }
    }

    /** The connection is read from the projected read model: wait until the proxy serves it. */
    private static void awaitConnection(LoadRunner.Call proxied) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Boolean.TRUE.equals(proxied.get().handle((ok, error) -> error == null && ok).join())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the proxy did not serve the code host connection within 60 s");
            }
            Thread.sleep(100);
        }
    }

    private static void print(String name, LatencyRecorder run) {
        System.out.printf(Locale.ROOT, "  %-24s p50 %6.2f ms  p99 %6.2f ms  p99.9 %6.2f ms  (%,d calls, %,d failed)%n", name,
                run.percentileMillis(50), run.percentileMillis(99), run.percentileMillis(99.9), run.count(), run.failures());
    }
}
