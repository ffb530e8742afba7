package io.agentgateway.adminapi;

import io.agentgateway.egress.EgressConfiguration;
import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.gatewaytracing.GatewayTracingConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * The admin API as the ingress assembles it, with only what it stands on (the command gateway, the HTTP edge, the
 * action gate): what this module's HTTP tests start ({@code ingress-test-support}'s {@code RunningIngress}), against a
 * real broker and PostgreSQL, without the other products or the console. Configured as the ingress application is.
 */
@SpringBootApplication(scanBasePackages = {"io.agentgateway.gatewayclient", "io.agentgateway.httpedge",
        "io.agentgateway.actiongate", "io.agentgateway.adminapi"}, excludeName = {
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayEndpointAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration"})
@ConfigurationPropertiesScan({"io.agentgateway.gatewayclient", "io.agentgateway.httpedge", "io.agentgateway.actiongate",
        "io.agentgateway.adminapi"})
@EnableConfigurationProperties(TopicLayoutProperties.class)
@Import({EgressConfiguration.class, GatewayTracingConfiguration.class})
@PropertySource("classpath:io/agentgateway/adminapi/admin-api-test-defaults.properties")
public class AdminApiTestApplication {

    public static SpringApplication application() {
        SpringApplication application = new SpringApplication(AdminApiTestApplication.class);
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        return application;
    }
}
