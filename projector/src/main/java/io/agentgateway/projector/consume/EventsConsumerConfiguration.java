package io.agentgateway.projector.consume;

import io.agentgateway.projector.ProjectorProperties;
import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The events-topic consumer: a spring-kafka batch listener container rather than a hand-written
 * poll loop, because the container already does what such a loop must get right: rebalances (commit
 * on revoke), graceful stop, pausing the consumer while a failed batch is retried without leaving the
 * group, and committing offsets only after the listener returned ({@code AckMode.BATCH}). Declared as
 * a bean of its own, not through {@code @KafkaListener} and Boot's shared container factory, so
 * nothing another module's {@code spring.kafka.listener.*} settings say can turn it into a record
 * listener or auto-commit it.
 */
@Configuration(proxyBeanMethods = false)
public class EventsConsumerConfiguration {

    /** @param topicsProvisioned taken so the topics exist before the consumer subscribes */
    @Bean
    ConcurrentMessageListenerContainer<String, EventEnvelope> projectorEventsContainer(
            KafkaProperties kafka, ProjectorProperties projector, EventBatchListener listener,
            GatewayTopicsProvisioning topicsProvisioned) {
        var consumers = new DefaultKafkaConsumerFactory<String, EventEnvelope>(
                consumerProperties(kafka, projector),
                () -> Topics.EVENTS.keySerde().deserializer(),
                // a record that does not parse arrives as a null value instead of failing the poll
                () -> new ErrorHandlingDeserializer<>(Topics.EVENTS.valueSerde().deserializer()));

        ContainerProperties properties = new ContainerProperties(Topics.EVENTS.name());
        properties.setAckMode(ContainerProperties.AckMode.BATCH);
        properties.setSyncCommits(true);
        properties.setClientId(projector.groupId());
        properties.setMessageListener(listener);
        // poll returns as soon as records arrive; the timeout only bounds how long a stop waits
        properties.setPollTimeout(1000);

        var container = new ConcurrentMessageListenerContainer<>(consumers, properties);
        container.setConcurrency(projector.concurrency());
        container.setCommonErrorHandler(new DefaultErrorHandler(retryForever(projector)));
        return container;
    }

    private static Map<String, Object> consumerProperties(KafkaProperties kafka, ProjectorProperties projector) {
        // what every client of the gateway waits on a broker (KafkaClientTimeouts), then the operator's settings
        Map<String, Object> props = new HashMap<>(KafkaClientTimeouts.consumer());
        props.putAll(kafka.buildConsumerProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, projector.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // a new projector (or a rebuilt database) builds the read models from the start of the log
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // under exactly-once the decision stream's aborted events must never reach the read models
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) projector.fetchMaxWait().toMillis());
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, projector.fetchMinBytes());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, projector.maxPollRecords());
        // failover in seconds: a dead projector's partitions move after the session timeout (Kafka: 45 s);
        // with an instance id a restart takes them back without a rebalance (static membership)
        ConsumerFailover.apply(props, projector.instanceId(), projector.sessionTimeout());
        return props;
    }

    /**
     * What reaches the error handler is a failure of the database, not of an event (those are
     * skipped in the listener): retry the batch until PostgreSQL is back, never drop audit rows.
     */
    private static ExponentialBackOff retryForever(ProjectorProperties projector) {
        ExponentialBackOff backOff = new ExponentialBackOff(100, 2.0);
        backOff.setMaxInterval(projector.retryMaxInterval().toMillis());
        return backOff;
    }
}
