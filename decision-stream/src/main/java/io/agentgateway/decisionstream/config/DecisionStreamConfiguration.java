package io.agentgateway.decisionstream.config;

import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the Spring-free runner from {@code spring.kafka.*} (connection: bootstrap servers, security,
 * {@code spring.kafka.streams.properties.*}) and {@code gateway.decision.*} / {@code gateway.topics.*}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({DecisionStreamProperties.class, TopicLayoutProperties.class, KafkaProperties.class,
        EvidenceProperties.class})
public class DecisionStreamConfiguration {

    @Bean
    public DecisionStreamLifecycle decisionStreamLifecycle(DecisionStreamProperties decision, TopicLayoutProperties topics,
            KafkaProperties kafka, ObjectProvider<LocalReplyChannel> localReplies, ObjectProvider<GatewayTracing> tracing,
            EvidenceProperties evidence) {
        // a channel exists only where a launcher put an ingress in the same process (the embedded default)
        StreamsOptions options = decision.streamsOptions(topics.replicationFactor());
        DecisionStreamRunner runner = new DecisionStreamRunner(decision.settings(),
                DecisionStreamsConfig.build(kafka.buildStreamsProperties(), options, decision.failoverOptions()),
                localReplies.getIfAvailable(), evidence.settings());
        runner.tracing(tracing.getIfAvailable(GatewayTracing::disabled));
        return new DecisionStreamLifecycle(runner, String.join(",", kafka.getBootstrapServers()), topics.layout(),
                decision.closeTimeout(), options);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {
        @Bean
        public DecisionStreamHealthIndicator decisionStreamHealthIndicator(DecisionStreamLifecycle lifecycle) {
            return new DecisionStreamHealthIndicator(lifecycle);
        }

        @Bean
        public DecisionStreamReadinessIndicator decisionStreamReadinessHealthIndicator(DecisionStreamLifecycle lifecycle) {
            return new DecisionStreamReadinessIndicator(lifecycle);
        }
    }
}
