package io.agentgateway.ingressapi;

import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.egress.EgressConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.egress.EgressConfiguration;
import io.agentgateway.gatewaytracing.GatewayTracingConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * The HTTP edge: authenticates callers, publishes commands to the log, waits for the decision
 * stream's replies and serves the read endpoints from the projector's PostgreSQL tables, and the web console at
 * {@code /} (module {@code console}, outside the scanned package: imported).
 * Flyway is excluded by name because the projector owns the schema (and Flyway may be on the
 * classpath when every module runs in one JVM). Defaults come from a module-specific properties
 * file, not application.*, which every context on a shared classpath would read.
 */
// LogbackMetrics is left out: its turbo filter runs before every log call of the whole JVM, the many
// disabled debug calls of the Kafka clients and broker included (~3% of the CPU of an evaluation)
// the ingress is assembled from the modules below, each in its own base package
@SpringBootApplication(scanBasePackages = {"io.agentgateway.ingressapi", "io.agentgateway.gatewayclient",
        "io.agentgateway.httpedge", "io.agentgateway.actiongate", "io.agentgateway.agentapi", "io.agentgateway.mcpgate",
        "io.agentgateway.toolproxy", "io.agentgateway.webhooks", "io.agentgateway.adminapi",
        "io.agentgateway.approvalexecutor"}, excludeName = {
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayEndpointAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration"})
@ConfigurationPropertiesScan({"io.agentgateway.ingressapi", "io.agentgateway.gatewayclient", "io.agentgateway.httpedge",
        "io.agentgateway.actiongate", "io.agentgateway.agentapi", "io.agentgateway.mcpgate", "io.agentgateway.toolproxy",
        "io.agentgateway.webhooks", "io.agentgateway.adminapi", "io.agentgateway.approvalexecutor"})
@EnableConfigurationProperties(TopicLayoutProperties.class) // shared: gateway-config, outside the scanned package
@Import({EgressConfiguration.class, GatewayTracingConfiguration.class, ConsoleConfiguration.class})
@PropertySource("classpath:io/agentgateway/ingressapi/ingress-api-defaults.properties")
public class IngressApplication {

    /**
     * The application as it must be started, also by a launcher that puts every module on one
     * classpath: the web type is pinned to reactive so that another module's servlet or mail
     * starter cannot change what this context becomes.
     */
    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(IngressApplication.class);
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        return application;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
