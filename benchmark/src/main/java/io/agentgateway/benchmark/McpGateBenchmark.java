package io.agentgateway.benchmark;

import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.gateway.GatewayProcesses;
import io.agentgateway.benchmark.load.JitWarmup;
import io.agentgateway.benchmark.load.LoadRunner;
import io.agentgateway.benchmark.measure.ClosedLoopCpu;
import io.agentgateway.benchmark.measure.LatencyRecorder;
import io.agentgateway.benchmark.peers.BenchMcpUpstream;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.springframework.ai.mcp.client.webflux.transport.WebClientStreamableHttpTransport;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * {@code tools/call} through the MCP gate against the same upstream called directly, in one run
 * (the gate's speed targets, docs/benchmarks.md: it adds at most 5 ms at p50 and 25 ms at p99 at 200 calls/s, and
 * sustains at least 1,000 allowed calls/s on the 2-core machine, upstream included).
 *
 * <p>Both paths use the same client, the official SDK's async client over streamable HTTP (its WebClient
 * transport, on a Reactor Netty event loop and connection pool of the benchmark's own, apart from the
 * gateway's: the load generator shares the two cores and must cost little), and the same SDK-built
 * upstream ({@link BenchMcpUpstream}), so the difference is the gate: key, risk,
 * the decision through Kafka, the upstream call from the gateway, the answer. Latency is measured
 * open loop (calls start on schedule whatever the latency, from the intended start); throughput
 * closed loop with {@code bench.clients} callers. The gated call must come back {@code allowed}.
 */
public final class McpGateBenchmark {
    private static final String GATE = "/functions/v1/mcp-gate/sse";
    /** Why calls failed, by path and reason (a timeout, the gate's JSON-RPC error, ...), printed at the end. */
    private static final ConcurrentMap<String, LongAdder> FAILURES = new ConcurrentHashMap<>();

    private McpGateBenchmark() {}

    public static void main(String[] args) throws Exception {
        Duration phase = Duration.ofSeconds(Integer.getInteger("bench.seconds", 15));
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmupSeconds", 60));
        int rate = Integer.getInteger("bench.rate", 200);
        int callers = Integer.getInteger("bench.clients", 64);
        LoopResources clientLoop = LoopResources.create("bench-mcp-client", 1, true);
        ConnectionProvider clientConnections = ConnectionProvider.builder("bench-mcp-client")
                .maxConnections(callers * 2).pendingAcquireMaxCount(-1).build();
        ReactorClientHttpConnector connector = new ReactorClientHttpConnector(
                HttpClient.create(clientConnections).runOn(clientLoop));
        Path dataDir = Files.createTempDirectory("gateway-mcp-bench-");
        GatewayProcesses processes = ClosedLoopCpu.embeddedIn(dataDir);
        try (EmbeddedGateway gateway = EmbeddedGateway.start(LauncherSettings.ephemeral(dataDir), BenchmarkGateway.PROPERTIES);
             BenchMcpUpstream upstream = BenchMcpUpstream.start()) {
            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            var workspace = WorkspaceBootstrap.create(admin, gateway.operatorJwt(), jwt, "mcp gate benchmark", List.of("mcp"));
            connect(admin, jwt, workspace.workspaceId(), upstream.url());

            McpAsyncClient direct = client(connector, upstream.url(), "Bearer upstream-token");
            McpAsyncClient gated = client(connector, gateway.baseUrl() + GATE, "Bearer " + workspace.apiKey());
            awaitGateServes(gated);
            LoadRunner.Call directCall = call("direct", direct, result -> !Boolean.TRUE.equals(result.isError()));
            LoadRunner.Call gatedCall = call("gate", gated, McpGateBenchmark::allowed);

            System.out.printf(Locale.ROOT, "%nwarm-up: %d s closed loop direct, then the gate until the JIT is quiet%n",
                    warmup.toSeconds());
            LoadRunner.closedLoopPerSecond(directCall, 16, warmup.dividedBy(2));
            JitWarmup.untilQuiet(gatedCall, 16, 0.10, warmup, Duration.ofMinutes(5));
            LoadRunner.awaitDrained(gatedCall);
            FAILURES.clear();

            LatencyRecorder directLatency = LoadRunner.openLoop(directCall, rate, phase);
            LoadRunner.awaitDrained(gatedCall);
            LatencyRecorder gatedLatency = LoadRunner.openLoop(gatedCall, rate, phase);
            LoadRunner.awaitDrained(gatedCall);
            ClosedLoopCpu directMax = ClosedLoopCpu.measure(directCall, callers, phase, processes);
            LoadRunner.awaitDrained(gatedCall);
            ClosedLoopCpu gatedMax = ClosedLoopCpu.measure(gatedCall, callers, phase, processes);

            // a 1 MB result, open loop at a rate of its own (each call moves 1 MB three times)
            int bigRate = Integer.getInteger("bench.bigRate", 20);
            var big = new McpSchema.CallToolRequest(BenchMcpUpstream.BIG_TOOL, Map.of());
            Predicate<McpSchema.CallToolResult> whole = result -> !Boolean.TRUE.equals(result.isError())
                    && result.content().get(0) instanceof McpSchema.TextContent text && text.text().length() == BenchMcpUpstream.BIG_BYTES;
            LoadRunner.Call directBig = call("direct 1MB", direct, big, whole);
            LoadRunner.Call gatedBig = call("gate 1MB", gated, big, result -> whole.test(result) && allowed(result));
            LoadRunner.awaitDrained(gatedCall);
            LatencyRecorder directBigLatency = LoadRunner.openLoop(directBig, bigRate, phase);
            LoadRunner.awaitDrained(gatedBig);
            LatencyRecorder gatedBigLatency = LoadRunner.openLoop(gatedBig, bigRate, phase);
            LoadRunner.awaitDrained(gatedBig);

            System.out.printf(Locale.ROOT, "%ntools/call at %d calls/s, open loop, %d s each (%d cores):%n", rate,
                    phase.toSeconds(), Runtime.getRuntime().availableProcessors());
            print("upstream direct", directLatency);
            print("through the gate", gatedLatency);
            System.out.printf(Locale.ROOT, "  added by the gate: p50 %+.2f ms (target <= 5), p99 %+.2f ms (target <= 25)%n",
                    gatedLatency.percentileMillis(50) - directLatency.percentileMillis(50),
                    gatedLatency.percentileMillis(99) - directLatency.percentileMillis(99));
            System.out.printf(Locale.ROOT, "%ntools/call with a 1 MB result at %d calls/s, open loop, %d s each:%n", bigRate,
                    phase.toSeconds());
            print("upstream direct", directBigLatency);
            print("through the gate", gatedBigLatency);
            System.out.printf(Locale.ROOT, "%nmax sustained, closed loop, %d callers, %d s:%n", callers, phase.toSeconds());
            System.out.printf(Locale.ROOT, "  upstream direct   %s%n", directMax.describe("calls"));
            System.out.printf(Locale.ROOT, "  through the gate  %s (target >= 1,000 allowed calls/s)%n", gatedMax.describe("allowed calls"));
            System.out.printf(Locale.ROOT, "  CPU the gate adds per call: %.3f ms%n", gatedMax.totalMillisPerCall() - directMax.totalMillisPerCall());
            if (!FAILURES.isEmpty()) {
                System.out.printf(Locale.ROOT, "%nfailed calls by reason (all measured phases):%n");
                FAILURES.forEach((reason, count) -> System.out.printf(Locale.ROOT, "  %,7d  %s%n", count.sum(), reason));
            }
            direct.closeGracefully().block(Duration.ofSeconds(5));
            gated.closeGracefully().block(Duration.ofSeconds(5));
        } finally {
            clientConnections.dispose();
            clientLoop.dispose();
        }
        // the SDK client and server and the event loops may leave threads behind; the figures are printed
        System.exit(0);
    }

    private static void connect(GatewayHttpClient admin, String jwt, String workspace, String url) throws InterruptedException {
        var put = admin.send("PUT", "/admin/v1/workspaces/" + workspace + "/tools/mcp", jwt, Map.of(
                "mcp_server_url", url, "mcp_transport", "http", "mcp_auth_type", "bearer",
                "config", Map.of("access_token", "upstream-token")));
        if (put.status() != 200) {
            throw new IllegalStateException("mcp connection not stored: " + put.status() + " " + put.rawBody());
        }
    }

    /** The connection and the key reach the read model a moment after the commands: wait for an allowed call. */
    private static void awaitGateServes(McpAsyncClient gated) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (allowed(gated.callTool(request()).block(Duration.ofSeconds(10)))) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // initialize refused until the key is projected, or no upstream yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the gate did not allow a call within 30 s");
    }

    private static McpAsyncClient client(ReactorClientHttpConnector connector, String url, String authorization) {
        URI uri = URI.create(url);
        WebClient.Builder web = WebClient.builder().clientConnector(connector)
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(4 * BenchMcpUpstream.BIG_BYTES))
                .baseUrl(uri.getScheme() + "://" + uri.getRawAuthority())
                .defaultHeader(HttpHeaders.AUTHORIZATION, authorization);
        var transport = WebClientStreamableHttpTransport.builder(web).endpoint(uri.getRawPath()).build();
        return McpClient.async(transport).requestTimeout(Duration.ofSeconds(30)).build();
    }

    private static McpSchema.CallToolRequest request() {
        return new McpSchema.CallToolRequest(BenchMcpUpstream.TOOL, Map.of("org", "bench"));
    }

    private static LoadRunner.Call call(String path, McpAsyncClient client, Predicate<McpSchema.CallToolResult> ok) {
        return call(path, client, request(), ok);
    }

    private static LoadRunner.Call call(String path, McpAsyncClient client, McpSchema.CallToolRequest request,
                                        Predicate<McpSchema.CallToolResult> ok) {
        // the SDK client initializes itself on its first call and reuses its session after that
        return () -> client.callTool(request).map(result -> {
            boolean good = ok.test(result);
            if (!good) {
                failed(path, "answered " + result.meta());
            }
            return good;
        }).toFuture().exceptionally(failure -> {
            failed(path, failure.getClass().getSimpleName() + ": " + failure.getMessage());
            return false;
        });
    }

    private static void failed(String path, String reason) {
        String key = path + " " + (reason.length() > 160 ? reason.substring(0, 160) : reason);
        FAILURES.computeIfAbsent(key, k -> new LongAdder()).increment();
    }

    private static boolean allowed(McpSchema.CallToolResult result) {
        if (result == null || result.meta() == null || !(result.meta().get("service") instanceof Map<?, ?> service)) {
            return false;
        }
        return "allowed".equals(service.get("status"));
    }

    private static void print(String label, LatencyRecorder latency) {
        System.out.printf(Locale.ROOT, "  %-17s p50 %7.2f ms  p99 %7.2f ms  (%,d calls, %d failed)%n", label,
                latency.percentileMillis(50), latency.percentileMillis(99), latency.count(), latency.failures());
    }
}
