package io.agentgateway.notifier;

import io.agentgateway.egress.EgressConfiguration;
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
 * Delivers the notifications of {@code gateway.notifications.v1} by email and chat webhook, at most
 * once per notification and channel, with retries and a dead-letter topic. See README.md.
 */
// LogbackMetrics is left out: its turbo filter runs before every log call of the whole JVM, the many
// disabled debug calls of the Kafka clients and broker included (~3% of the CPU of an evaluation)
@SpringBootApplication(excludeName = "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration")
@ConfigurationPropertiesScan
@EnableConfigurationProperties(TopicLayoutProperties.class) // shared: gateway-config, outside the scanned package
@Import({EgressConfiguration.class, GatewayTracingConfiguration.class})
@PropertySource("classpath:io/agentgateway/notifier/notifier-defaults.properties")
public class NotifierApplication {

    /**
     * Run alone, the service answers HTTP on its management port only (health, Prometheus; loopback unless
     * {@code management.server.address} says otherwise): there is no other endpoint.
     */
    public static void main(String[] args) {
        alone().run(args);
    }

    /** The notifier as its own service: {@link #application()} with the management server (see {@link ManagementOnly}). */
    public static SpringApplication alone() {
        SpringApplication application = application();
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        application.setDefaultProperties(ManagementOnly.APPLICATION_SERVER);
        return application;
    }

    /**
     * The notifier as a {@link SpringApplication} with no web server (it serves nothing over HTTP,
     * even when a web starter is on the classpath, as in the launcher).
     */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(NotifierApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application;
    }
}
