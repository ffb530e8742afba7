package io.agentgateway.faultsuite;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * An open loop of evaluations at a fixed rate, round robin over workspaces and ingress replicas. Every
 * request names itself in {@code resourceId} ({@code fs-<seq>}), so its audit row can be found whatever
 * happened to the answer. Mostly allows (docs page.read), and one in twenty a code-host merge
 * (require_approval: an approval opened, or, decided late, not).
 */
final class LoadGenerator implements AutoCloseable {
    /** One request and what came back: status -1 when no HTTP answer came (connection refused, time-out). */
    record Sent(long seq, int workspace, int ingress, long sentAtMs, int status, String decision, String auditLogId,
                long answeredAtMs) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final Queue<Sent> results = new ConcurrentLinkedQueue<>();
    private final AtomicLong seq = new AtomicLong();
    private final List<String> apiKeys;
    private final IntFunction<String> ingressUrl;
    private final int ingresses;

    LoadGenerator(List<String> apiKeys, int ingresses, IntFunction<String> ingressUrl) {
        this.apiKeys = List.copyOf(apiKeys);
        this.ingresses = ingresses;
        this.ingressUrl = ingressUrl;
    }

    void start(int perSecond) {
        long periodMicros = 1_000_000L / perSecond;
        ticker.scheduleAtFixedRate(this::sendOne, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    private void sendOne() {
        long n = seq.incrementAndGet();
        int workspace = (int) (n % apiKeys.size());
        int ingress = (int) ((n / apiKeys.size()) % ingresses);
        boolean merge = n % 20 == 0;
        String body = merge
                ? "{\"tool\":\"code_host\",\"action\":\"pull_request.merge\",\"riskLevel\":\"low\",\"agentId\":\"fault-suite\",\"resourceType\":\"req\",\"resourceId\":\"fs-" + n + "\"}"
                : "{\"tool\":\"docs\",\"action\":\"page.read\",\"riskLevel\":\"low\",\"agentId\":\"fault-suite\",\"resourceType\":\"req\",\"resourceId\":\"fs-" + n + "\"}";
        long sentAt = System.currentTimeMillis();
        HttpRequest request = HttpRequest.newBuilder(URI.create(ingressUrl.apply(ingress) + "/functions/v1/evaluate-action"))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + apiKeys.get(workspace))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            long answeredAt = System.currentTimeMillis();
            if (error != null) {
                results.add(new Sent(n, workspace, ingress, sentAt, -1, null, null, answeredAt));
                return;
            }
            String decision = null;
            String auditLogId = null;
            if (response.statusCode() == 200) {
                JsonNode json = JSON.readTree(response.body());
                decision = json.path("decision").asString(null);
                auditLogId = json.path("auditLogId").asString(null);
            }
            results.add(new Sent(n, workspace, ingress, sentAt, response.statusCode(), decision, auditLogId, answeredAt));
        });
    }

    long sentCount() {
        return seq.get();
    }

    int answeredCount() {
        return results.size();
    }

    List<Sent> results() {
        return List.copyOf(results);
    }

    void stop() {
        ticker.shutdownNow();
    }

    @Override
    public void close() {
        stop();
    }
}
