package io.agentgateway.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.notifier.testing.Notifications;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Misconfiguration stops the notifier at start-up with a message that says what to set. */
class NotifierStartupTest {

    @Test
    void refusesToStartWithoutTheSecretKey() {
        List<String> args = baseArgs();
        args.add("--spring.mail.host=127.0.0.1");

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("gateway.secrets.key must be set to base64 of 32 random bytes");
    }

    @Test
    void refusesToStartWithoutAnSmtpServer() {
        List<String> args = baseArgs();
        args.add("--gateway.secrets.key=" + Notifications.newSecretKey());

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("spring.mail.host is not set");
    }

    @Test
    void refusesToStartWithAPublicBaseUrlThatIsNoHttpUrl() {
        List<String> args = baseArgs();
        args.add("--gateway.secrets.key=" + Notifications.newSecretKey());
        args.add("--spring.mail.host=127.0.0.1");
        args.add("--gateway.notifier.public-base-url=gateway.example.test/admin?x=1");

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("gateway.notifier.public-base-url must be an absolute http or https URL");
    }

    /** Issue 14: run alone, the notifier serves health and Prometheus on a management port of its own, on loopback. */
    @Test
    void aloneItServesHealthAndPrometheusOnItsManagementPort() throws Exception {
        List<String> args = baseArgs();
        args.add("--gateway.secrets.key=" + Notifications.newSecretKey());
        args.add("--spring.mail.host=127.0.0.1");
        args.add("--management.server.port=0");
        args.add("--management.health.mail.enabled=false");

        try (var notifier = NotifierApplication.alone().run(args.toArray(String[]::new))) {
            String port = notifier.getEnvironment().getProperty("local.management.port");
            var http = HttpClient.newHttpClient();
            var prometheus = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(prometheus.statusCode()).isEqualTo(200);
            assertThat(prometheus.body()).contains("jvm_memory_used_bytes");
            var health = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.body()).contains("\"status\":\"UP\"");
            String server = notifier.getEnvironment().getProperty("local.server.port");
            assertThat(server).isNotEqualTo(port);
            var api = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(api.statusCode()).as("nothing on the application server").isEqualTo(404);
        }
    }

    private static List<String> baseArgs() {
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        List<String> args = new ArrayList<>();
        args.add("--spring.main.banner-mode=off");
        args.add("--spring.kafka.bootstrap-servers=" + SharedTestInfra.kafka().bootstrapServers());
        args.add("--spring.datasource.url=" + postgres.createDatabase("notifier_startup"));
        args.add("--spring.datasource.username=" + postgres.username());
        args.add("--spring.datasource.password=" + postgres.password());
        args.add("--gateway.notifier.group-id=notifier-startup-" + UUID.randomUUID());
        return args;
    }
}
