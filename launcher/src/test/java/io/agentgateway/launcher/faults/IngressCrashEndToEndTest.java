package io.agentgateway.launcher.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.launcher.support.GatewayHarness.AuditRow;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17's "every undelivered decision marked", for the one case no caller reports: an ingress killed (SIGKILL, a
 * process of its own on the shared gateway's broker and database) while evaluations it published wait for their
 * replies. The decision stream decided them in time and recorded them as delivered; the replica's next start finds
 * them in its in-flight journal and reports them, and their rows are marked undelivered. What the restarted replica
 * answers is not marked.
 */
class IngressCrashEndToEndTest {
    private static final int REPLY_PARTITION = 1;
    private Process replica;

    @TempDir
    Path journal;

    @AfterEach
    void stopReplica() throws InterruptedException {
        if (replica != null) {
            replica.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void evaluationsInFlightAtAKillAreMarkedUndeliveredOnceTheReplicaIsBack() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String agent = "agent-" + UUID.randomUUID();
        int port = FreePorts.pick();
        // replies never reach this process: its evaluations are decided and wait until it dies
        replica = startReplica(port, Map.of("spring.kafka.consumer.properties.interceptor.classes",
                SwallowedReplies.class.getName(), "gateway.ingress.reply-timeout", "PT60S"), "first");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inFlight.add(http.sendAsync(evaluate(port, ws, agent), HttpResponse.BodyHandlers.ofString()));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(ws.id(), agent).size() == 3);
        assertThat(rows(ws.id(), agent)).as("decided in time, recorded as delivered").noneMatch(AuditRow::undelivered);

        assertThat(replica.destroyForcibly().waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (CompletableFuture<HttpResponse<String>> request : inFlight) {
            try {
                HttpResponse<String> response = request.get(30, TimeUnit.SECONDS);
                throw new AssertionError("answered by a killed process: " + response.statusCode() + " " + response.body());
            } catch (ExecutionException expected) {
                assertThat(expected.getCause()).isInstanceOf(IOException.class); // the connection dropped
            }
        }

        replica = startReplica(port, Map.of(), "restarted");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows(ws.id(), agent).stream()
                .allMatch(AuditRow::undelivered));
        HttpResponse<String> answered = http.send(evaluate(port, ws, agent), HttpResponse.BodyHandlers.ofString());
        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> rows(ws.id(), agent).size() == 4);
        assertThat(rows(ws.id(), agent)).filteredOn(row -> !row.undelivered()).singleElement()
                .satisfies(row -> assertThat(answered.body()).contains(row.auditLogId()));
    }

    private Process startReplica(int port, Map<String, String> settings, String name) throws IOException {
        Map<String, String> overrides = new java.util.LinkedHashMap<>(settings);
        overrides.put("server.port", Integer.toString(port));
        overrides.put("gateway.ingress.journal-dir", journal.toString());
        int management = FreePorts.pickOtherThan(port);
        overrides.put("management.server.port", Integer.toString(management));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "io.agentgateway.ingressapi.IngressApplication"));
        command.addAll(GatewayHarness.gateway().ingressReplicaArguments(REPLY_PARTITION, overrides));
        Path log = Files.createTempFile("ingress-crash-" + name + "-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            // UP once the command gateway can receive replies
            Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> !process.isAlive() || health(management) == 200);
        } catch (RuntimeException e) {
            throw new AssertionError("the replica did not start; its log: " + Files.readString(log), e);
        }
        assertThat(process.isAlive()).as("the replica exited; its log: %s", Files.readString(log)).isTrue();
        return process;
    }

    private static int health(int managementPort) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                    + "/actuator/health")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static HttpRequest evaluate(int port, TestWorkspace ws, String agent) {
        String body = "{\"tool\":\"docs\",\"action\":\"page.read\",\"riskLevel\":\"low\",\"agentId\":\"" + agent + "\"}";
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/functions/v1/evaluate-action"))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static List<AuditRow> rows(String workspaceId, String agentId) throws Exception {
        return GatewayHarness.auditRows(workspaceId, agentId);
    }
}
