package io.agentgateway.ingresstestsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An ingress application started as the launcher would start it, on a free port: the one the test tree names
 * ({@link IngressUnderTest}), or the one the caller gives (a module's own assembly of the ingress's parts).
 */
public final class RunningIngress implements AutoCloseable {
    public static final String JWT_SECRET = "test-hs256-secret-of-at-least-32-bytes!";
    /** The user id of the test ingress's operator (gateway.auth.operators). */
    public static final String OPERATOR = "operator-1";
    /** base64 of 32 bytes, for SecretBox. */
    public static final String SECRETS_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    private static final Duration READY_WITHIN = Duration.ofSeconds(60);
    /** gateway-client's health indicator of the command gateway, by its bean name: the harness knows no ingress class. */
    private static final String COMMAND_GATEWAY_HEALTH = "commandGatewayHealthIndicator";

    public final ConfigurableApplicationContext context;
    public final TestHttp http;
    public final ReadModelRows rows;

    private RunningIngress(ConfigurableApplicationContext context) {
        this.context = context;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.http = new TestHttp("http://127.0.0.1:" + port);
        this.rows = new ReadModelRows(context.getBean(JdbcClient.class));
    }

    /**
     * Starts the application the test tree names ({@link IngressUnderTest}) and, unless {@code awaitReady} is false,
     * waits until it is ready.
     */
    public static RunningIngress start(String bootstrapServers, TestDatabase database, Map<String, String> overrides, boolean awaitReady) {
        return start(IngressUnderTest::find, bootstrapServers, database, overrides, awaitReady);
    }

    /**
     * Starts {@code application} (the whole ingress, or a module's own assembly of the ingress's parts) and, unless
     * {@code awaitReady} is false, waits until it is ready: the command gateway's reply partition is assigned (its health
     * component up, what a load balancer's readiness probe asks).
     *
     * @param application the application as it must be started (its web type pinned to reactive)
     */
    public static RunningIngress start(Supplier<SpringApplication> application, String bootstrapServers, TestDatabase database,
                                       Map<String, String> overrides, boolean awaitReady) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        // the upstreams of these tests listen on loopback
        properties.put("gateway.egress.allow", "127.0.0.0/8,::1");
        // the request rate limits are tested with the whole gateway (launcher's FairUseTest)
        properties.put("gateway.limits.key-rate", "0");
        properties.put("gateway.limits.workspace-rate", "0");
        properties.put("spring.kafka.bootstrap-servers", bootstrapServers);
        properties.put("spring.datasource.url", database.url);
        properties.put("spring.datasource.username", database.username);
        properties.put("spring.datasource.password", database.password);
        properties.put("gateway.auth.jwt.hs256-secret", JWT_SECRET);
        properties.put("gateway.auth.operators", OPERATOR);
        properties.put("gateway.secrets.key", SECRETS_KEY);
        properties.put("gateway.ingress.reply-timeout", "PT3S");
        properties.put("gateway.ingress.max-body-bytes", "4096");
        properties.putAll(overrides);
        // command-line arguments: they win over the module's application.yml, as a launcher's must
        List<String> args = new ArrayList<>();
        properties.forEach((key, value) -> args.add("--" + key + "=" + value));
        ConfigurableApplicationContext context = application.get().run(args.toArray(String[]::new));
        RunningIngress ingress = new RunningIngress(context);
        if (awaitReady) {
            ingress.awaitReady();
        }
        return ingress;
    }

    /** The management server (actuator), on a port of its own. */
    public TestHttp management() {
        return new TestHttp("http://127.0.0.1:" + context.getEnvironment().getProperty("local.management.port"));
    }

    /** Until the command gateway can receive replies: its health component ({@code commandGateway}) is up. */
    private void awaitReady() {
        HealthIndicator commandGateway = context.getBean(COMMAND_GATEWAY_HEALTH, HealthIndicator.class);
        Instant deadline = Instant.now().plus(READY_WITHIN);
        Health health = commandGateway.health();
        while (!Status.UP.equals(health.getStatus())) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("command gateway not ready within " + READY_WITHIN + ": " + health.getDetails());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            health = commandGateway.health();
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
