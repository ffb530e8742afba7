package io.agentgateway.gatewayconfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.kafka.TopicProvisioner;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class TopicLayoutPropertiesTest {

    @Test
    void defaultsAreTheOnesEveryServiceCreatesTopicsWith() {
        TopicLayoutProperties topics = bind(Map.of());
        assertThat(topics.layout()).isEqualTo(new TopicProvisioner.Layout(6, 4, (short) 0, 0));
    }

    @Test
    void relaxedKeysOverrideThem() {
        TopicLayoutProperties topics = bind(Map.of("gateway.topics.command-partitions", "2",
                "gateway.topics.reply-partitions", "3", "gateway.topics.replication-factor", "1",
                "gateway.topics.min-insync-replicas", "1"));
        assertThat(topics.layout()).isEqualTo(new TopicProvisioner.Layout(2, 3, (short) 1, 1));
    }

    private static TopicLayoutProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("gateway.topics", TopicLayoutProperties.class);
    }
}
