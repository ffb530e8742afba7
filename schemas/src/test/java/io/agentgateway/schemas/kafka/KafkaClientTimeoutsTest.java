package io.agentgateway.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class KafkaClientTimeoutsTest {
    /** The broker's fencing of a dead broker (broker.session.timeout.ms), after which its partitions have new leaders. */
    private static final int BROKER_SESSION_TIMEOUT_MS = 6_000;
    /** What a failover may cost, from the fault to the first answer after it. */
    private static final int FAILOVER_MS = 10_000;

    @Test
    void a_silent_broker_is_given_up_on_before_its_partitions_move_and_a_call_outlasts_a_failover() {
        // a request to the dead leader is dropped before the fencing, so the retry after it finds the new leader
        assertThat(KafkaClientTimeouts.REQUEST_TIMEOUT_MS).isLessThan(BROKER_SESSION_TIMEOUT_MS);
        // a blocking call (a commit while the coordinator moves) completes instead of failing, and fails within seconds
        // of a longer outage rather than Kafka's minute
        assertThat(KafkaClientTimeouts.DEFAULT_API_TIMEOUT_MS).isGreaterThan(FAILOVER_MS).isLessThan(60_000);
        assertThat(KafkaClientTimeouts.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS).isLessThan(FAILOVER_MS);
    }

    @Test
    void kafkas_own_config_classes_accept_each_set_and_read_the_chosen_values() {
        ProducerConfig producer = new ProducerConfig(with(KafkaClientTimeouts.producer(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
        assertThat(producer.getInt(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(5_000);
        assertThat(producer.getLong(ProducerConfig.METADATA_MAX_IDLE_CONFIG)).isEqualTo(365L * 24 * 3600 * 1000);
        assertThat(producer.getLong(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG)).isEqualTo(2_000L);
        // every key is one a producer knows (an unknown one would be logged and ignored)
        assertThat(producer.values().keySet()).containsAll(KafkaClientTimeouts.producer().keySet());

        ConsumerConfig consumer = new ConsumerConfig(with(KafkaClientTimeouts.consumer(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        assertThat(consumer.getInt(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(5_000);
        assertThat(consumer.getInt(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)).isEqualTo(15_000);
        assertThat(consumer.getLong(ConsumerConfig.RETRY_BACKOFF_MAX_MS_CONFIG)).isEqualTo(1_000L);
        assertThat(consumer.values().keySet()).containsAll(KafkaClientTimeouts.consumer().keySet());

        AdminClientConfig admin = new AdminClientConfig(KafkaClientTimeouts.admin());
        assertThat(admin.getInt(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(5_000);
        assertThat(admin.getInt(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)).isEqualTo(15_000);
        assertThat(admin.values().keySet()).containsAll(KafkaClientTimeouts.admin().keySet());
    }

    private static Map<String, Object> with(Map<String, Object> base, Object... pairs) {
        Map<String, Object> config = new HashMap<>(base);
        config.put("bootstrap.servers", "127.0.0.1:9092");
        for (int i = 0; i < pairs.length; i += 2) {
            config.put((String) pairs[i], pairs[i + 1]);
        }
        return config;
    }
}
