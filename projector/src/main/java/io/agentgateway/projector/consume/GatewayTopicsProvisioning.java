package io.agentgateway.projector.consume;

import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

/**
 * Creates the gateway topics that are missing before the events consumer starts, so the services
 * can start in any order (every gateway application does the same).
 */
@Component
public class GatewayTopicsProvisioning implements InitializingBean {
    private final KafkaProperties kafka;
    private final TopicLayoutProperties topics;

    public GatewayTopicsProvisioning(KafkaProperties kafka, TopicLayoutProperties topics) {
        this.kafka = kafka;
        this.topics = topics;
    }

    @Override
    public void afterPropertiesSet() {
        TopicProvisioner.ensureTopics(String.join(",", kafka.getBootstrapServers()), topics.layout());
    }
}
