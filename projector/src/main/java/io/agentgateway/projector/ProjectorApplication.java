package io.agentgateway.projector;

import io.agentgateway.gatewaytracing.GatewayTracingConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import org.springframework.context.annotation.PropertySource;

/**
 * Builds the PostgreSQL read models from the events topic. No web server: the projector has no
 * endpoint of its own, the ingress-api reads what it writes.
 */
// LogbackMetrics is left out: its turbo filter runs before every log call of the whole JVM, the many
// disabled debug calls of the Kafka clients and broker included (~3% of the CPU of an evaluation)
@SpringBootApplication(excludeName = "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration")
@ConfigurationPropertiesScan
@EnableConfigurationProperties(TopicLayoutProperties.class) // shared: gateway-config, outside the scanned package
@PropertySource("classpath:io/agentgateway/projector/projector-defaults.properties")
@Import(GatewayTracingConfiguration.class)
public class ProjectorApplication {

    /**
     * Run alone, the service answers HTTP on its management port only (health, Prometheus; loopback unless
     * {@code management.server.address} says otherwise): there is no other endpoint.
     */
    public static void main(String[] args) {
        SpringApplication application = application();
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        application.setDefaultProperties(ManagementOnly.APPLICATION_SERVER);
        application.run(args);
    }

    /** The projector as it must be started, also from the launcher: without a web server. */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(ProjectorApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application;
    }
}
