package io.agentgateway.gatewaytracing;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The process's {@link GatewayTracing}, imported by each service's application class. A context that is given one
 * (the embedded default shares one SDK between all its services; tests give one that keeps spans in memory) keeps it;
 * otherwise it is made here from {@code gateway.tracing.*} and the {@code OTEL_*} variables and closed with the context.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TracingProperties.class)
public class GatewayTracingConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    GatewayTracing gatewayTracing(TracingProperties properties, Environment environment) {
        if (!properties.enabled()) {
            return GatewayTracing.disabled();
        }
        String serviceName = properties.serviceName() != null && !properties.serviceName().isBlank()
                ? properties.serviceName().strip()
                : environment.getProperty("spring.application.name", "agent-action-gateway");
        return GatewayTracing.fromEnvironment(serviceName, properties.propagateUpstream());
    }
}
