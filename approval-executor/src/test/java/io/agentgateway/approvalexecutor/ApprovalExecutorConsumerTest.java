package io.agentgateway.approvalexecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** The approval executor's group fails over in seconds (issue 17), not after Kafka's 45 s session. */
class ApprovalExecutorConsumerTest {

    private static ExecutorProperties withSession(Duration session) {
        return new ExecutorProperties(true, "gateway-approval-executor", 1, Duration.ofSeconds(30), 5, Duration.ofSeconds(30),
                65536, session, Map.of());
    }

    @Test
    void theGroupSessionIsTheConfiguredOneWithHeartbeatsWellInside() {
        Map<String, Object> props = ApprovalExecutorConfiguration.consumerProperties(new KafkaProperties(),
                withSession(Duration.ofSeconds(6)));
        assertThat(props).containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000)
                .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1500)
                .containsEntry(ConsumerConfig.GROUP_ID_CONFIG, "gateway-approval-executor");
    }

    @Test
    void aSessionTheBrokerWouldRefuseStopsTheStart() {
        assertThatThrownBy(() -> withSession(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gateway.executor.session-timeout");
    }
}
