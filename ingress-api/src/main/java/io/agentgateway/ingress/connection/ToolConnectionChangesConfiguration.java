package io.agentgateway.ingress.connection;

import io.agentgateway.schemas.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;

/**
 * Wires the {@link ToolConnectionChangeListener}: one spring-kafka consumer on the events topic in a
 * group of this instance's own (a random id: every instance must see every change), starting at the
 * end and committing nothing, so the group leaves nothing behind on the broker.
 */
@Configuration(proxyBeanMethods = false)
class McpConnectionChangesConfiguration {

    @Bean
    KafkaMessageListenerContainer<String, byte[]> toolConnectionChangesContainer(KafkaProperties kafka,
                                                                                 List<ToolConnectionChangeObserver> caches) {
        String group = "gateway-tool-connections-" + UUID.randomUUID();
        var consumers = new DefaultKafkaConsumerFactory<>(consumerProperties(kafka, group),
                new StringDeserializer(), new ByteArrayDeserializer());
        ToolConnectionChangeListener listener = new ToolConnectionChangeListener(caches);
        ContainerProperties container = new ContainerProperties(Topics.EVENTS.name());
        container.setMessageListener(listener);
        container.setConsumerRebalanceListener(listener);
        container.setAckMode(ContainerProperties.AckMode.MANUAL);
        container.setClientId("gateway-tool-connections");
        container.setPollTimeout(1000);
        return new KafkaMessageListenerContainer<>(consumers, container);
    }

    private static Map<String, Object> consumerProperties(KafkaProperties kafka, String group) {
        Map<String, Object> props = new HashMap<>(kafka.buildConsumerProperties());
        props.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        props.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // every event of every workspace passes here to find the rare connection change: fetch in
        // batches (a change reaches the cache at most 200 ms later) rather than once per evaluation
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 64 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 200);
        return props;
    }
}
