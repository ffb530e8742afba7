package io.agentgateway.decisionstream;

import io.agentgateway.gatewaytracing.GatewayTracingConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.PropertySource;

/**
 * The decision stream as a service of its own. It has no HTTP server and no database: the exclusions
 * and {@link WebApplicationType#NONE} keep it that way when the launcher puts the other modules'
 * starters (WebFlux, JDBC, Flyway) on the classpath. Exclusions are given by name because those
 * classes are absent when this module runs alone.
 */
// LogbackMetrics is left out: its turbo filter runs before every log call of the whole JVM, the many
// disabled debug calls of the Kafka clients and broker included (~3% of the CPU of an evaluation)
@SpringBootApplication(excludeName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.health.DataSourceHealthContributorAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration",
})
@PropertySource("classpath:io/agentgateway/decisionstream/decision-stream-defaults.properties")
@Import(GatewayTracingConfiguration.class)
public class DecisionStreamApplication {

    /** The application as it must be started, also from the launcher: without a web server. */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(DecisionStreamApplication.class).web(WebApplicationType.NONE);
    }

    /**
     * Run alone, the service answers HTTP on its management port only (health, Prometheus; loopback unless
     * {@code management.server.address} says otherwise): there is no other endpoint.
     */
    public static void main(String[] args) {
        builder().web(WebApplicationType.REACTIVE).properties(ManagementOnly.APPLICATION_SERVER).run(args);
    }
}
