package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

class GatewayKafkaConfigsTest {

    @Test
    void the_commands_producer_fails_a_caller_within_the_reply_timeout_and_keeps_its_metadata() {
        Map<String, Object> producer = GatewayKafkaConfigs.producer(new KafkaProperties());
        assertThat(producer)
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000)
                .containsEntry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000)
                .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 3_000)
                .containsEntry(ProducerConfig.METADATA_MAX_IDLE_CONFIG, Duration.ofDays(365).toMillis())
                .containsEntry(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, 2_000L)
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // a command given up on is answered 503 before the caller's 5 s reply timeout is up
        assertThat((int) producer.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)).isLessThan(5_000);
    }

    @Test
    void the_reply_consumer_leaves_a_dead_leader_within_a_failover() {
        Map<String, Object> replies = GatewayKafkaConfigs.replyConsumer(new KafkaProperties(), 1);
        assertThat(replies)
                .containsEntry(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000)
                .containsEntry(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000)
                .containsEntry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .doesNotContainKey(ConsumerConfig.GROUP_ID_CONFIG);
    }

    @Test
    void an_operators_spring_kafka_setting_wins_but_never_over_the_invariants() {
        KafkaProperties kafka = new KafkaProperties();
        kafka.getProducer().getProperties().put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2500");
        kafka.getProducer().getProperties().put(ProducerConfig.ACKS_CONFIG, "1");
        kafka.getConsumer().getProperties().put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "7000");
        assertThat(GatewayKafkaConfigs.producer(kafka))
                .containsEntry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2500")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
        assertThat(GatewayKafkaConfigs.replyConsumer(kafka, 0)).containsEntry(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "7000");
    }
}
