package io.agentgateway.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, finding 6: {@code /actuator/metrics} was open to anyone on the API port (routes, exception class
 * names, pool figures). Management now has a port of its own, on loopback unless configured, with the
 * Prometheus format, and in the embedded default it shows every module's meters.
 */
class ManagementPortTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theApiPortHasNoActuatorEndpoints() {
        for (String path : List.of("/actuator", "/actuator/health", "/actuator/metrics", "/actuator/metrics/jvm.memory.used",
                "/actuator/prometheus", "/actuator/env")) {
            var answer = GatewayHarness.client().send("GET", path, null, null);
            assertThat(answer.status()).as(path).isEqualTo(404);
            assertThat(answer.text("error")).isEqualTo("Not found");
        }
    }

    @Test
    void theManagementPortServesHealthAndPrometheusWithEveryModulesMeters() throws Exception {
        String management = GatewayHarness.gateway().managementUrl();
        assertThat(URI.create(management).getHost()).isEqualTo("127.0.0.1");
        assertThat(get(management + "/actuator/health").body()).contains("\"status\":\"UP\"");
        // what a load balancer asks: the command gateway alone (docs/operating-a-cluster.md)
        assertThat(get(management + "/actuator/health/readiness").body()).contains("\"status\":\"UP\"");
        GatewayHarness.evaluate(GatewayHarness.newWorkspace(), GatewayHarness.action("docs", "page.read", "low"));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            HttpResponse<String> scrape = get(management + "/actuator/prometheus");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
            assertThat(scrape.body()).contains(
                    "jvm_memory_used_bytes",                 // the process, bound once
                    "gateway_ingress_evaluate_seconds",      // the ingress
                    "gateway_projector_events_projected",    // the projector
                    "hikaricp_connections",                  // the connection pools of the modules
                    "http_server_requests_seconds");
        });
        assertThat(get(management + "/actuator/metrics").statusCode()).isEqualTo(200);
    }

    @Test
    void theManagementPortListensOnLoopbackOnly() {
        int port = URI.create(GatewayHarness.gateway().managementUrl()).getPort();
        Optional<InetAddress> external = nonLoopbackAddress();
        external.ifPresent(address -> assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), 2000);
            }
        }).as("management reachable on " + address).isInstanceOf(IOException.class));
    }

    private static Optional<InetAddress> nonLoopbackAddress() {
        try {
            return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                    .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
                    .filter(a -> !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
