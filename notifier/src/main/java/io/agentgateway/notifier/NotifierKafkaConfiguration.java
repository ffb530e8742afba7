package io.agentgateway.notifier;

import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.deadletter.DeadLetterHeaders;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;

/**
 * The notifications consumers: two listener containers on the same topic (see {@link NotificationLane}),
 * the routine lane in group {@code gateway.notifier.group-id} and the kill-switch lane in
 * {@code gateway.notifier.urgent-group-id}, each with retries with exponential back-off, then the
 * dead-letter topic. Clients are built from the standard {@code spring.kafka.*} properties with the
 * serdes of the {@link Topics} registry.
 */
@Configuration(proxyBeanMethods = false)
class NotifierKafkaConfiguration {
    @Bean
    GatewayTopics gatewayTopics(KafkaProperties kafka, TopicLayoutProperties topics) {
        return GatewayTopics.ensure(String.join(",", kafka.getBootstrapServers()), topics.layout());
    }

    @Bean
    DefaultKafkaProducerFactory<String, NotificationRequested> deadLetterProducerFactory(KafkaProperties kafka) {
        // what every client of the gateway waits on a broker (KafkaClientTimeouts), then the operator's settings
        Map<String, Object> config = new HashMap<>(KafkaClientTimeouts.producer());
        config.putAll(kafka.buildProducerProperties());
        return new DefaultKafkaProducerFactory<>(config,
                Topics.NOTIFICATIONS_DEAD_LETTER.keySerde().serializer(),
                Topics.NOTIFICATIONS_DEAD_LETTER.valueSerde().serializer());
    }

    @Bean
    KafkaTemplate<String, NotificationRequested> deadLetterTemplate(
            ProducerFactory<String, NotificationRequested> deadLetterProducerFactory) {
        return new KafkaTemplate<>(deadLetterProducerFactory);
    }

    @Bean
    ConcurrentMessageListenerContainer<String, NotificationRequested> notificationListenerContainer(
            KafkaProperties kafka, NotifierProperties properties, GatewayTopics gatewayTopics,
            NotificationListener notificationListener, KafkaTemplate<String, NotificationRequested> deadLetterTemplate,
            DeliveryMetrics metrics) {
        // commit after every record: a notification is slow work, and a small replay after a crash
        // is all the ledger then has to absorb
        return container(kafka, properties, properties.groupId(), ContainerProperties.AckMode.RECORD, notificationListener,
                new NotificationRecoverer(deadLetterPublisher(deadLetterTemplate), metrics, true));
    }

    /** The kill-switch lane: a consumer of its own, so that nothing queued on the routine lane delays an alert. */
    @Bean
    ConcurrentMessageListenerContainer<String, NotificationRequested> urgentNotificationListenerContainer(
            KafkaProperties kafka, NotifierProperties properties, GatewayTopics gatewayTopics,
            NotificationListener urgentNotificationListener, KafkaTemplate<String, NotificationRequested> deadLetterTemplate,
            DeliveryMetrics metrics) {
        // commit after each poll: this lane passes over most records (every other kind), and a commit per
        // record passed over would be the lane's own delay (about 3 s behind 1,000 of them, measured); what a
        // crash replays, the ledger absorbs
        return container(kafka, properties, properties.urgentGroupId(), ContainerProperties.AckMode.BATCH,
                urgentNotificationListener, new NotificationRecoverer(deadLetterPublisher(deadLetterTemplate), metrics, false));
    }

    private static ConcurrentMessageListenerContainer<String, NotificationRequested> container(KafkaProperties kafka,
            NotifierProperties properties, String groupId, ContainerProperties.AckMode ackMode, NotificationListener listener,
            NotificationRecoverer recoverer) {
        ContainerProperties containerProperties = new ContainerProperties(Topics.NOTIFICATIONS.name());
        containerProperties.setGroupId(groupId);
        containerProperties.setAckMode(ackMode);
        containerProperties.setMessageListener(listener);
        ConcurrentMessageListenerContainer<String, NotificationRequested> container =
                new ConcurrentMessageListenerContainer<>(consumerFactory(kafka, properties), containerProperties);
        container.setConcurrency(properties.concurrency());
        container.setCommonErrorHandler(errorHandler(properties, recoverer));
        return container;
    }

    private static DefaultKafkaConsumerFactory<String, NotificationRequested> consumerFactory(KafkaProperties kafka,
            NotifierProperties properties) {
        Map<String, Object> config = new HashMap<>(KafkaClientTimeouts.consumer());
        config.putAll(kafka.buildConsumerProperties());
        // a notification requested before this group first ran is still owed to someone
        config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // never deliver a notification whose transaction was aborted (exactly-once decision stream)
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // failover in seconds (Kafka's 45 s session would hold a dead notifier's alerts that long);
        // spring-kafka suffixes an instance id per consumer thread
        if (properties.instanceId() != null && !properties.instanceId().isBlank()) {
            config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, properties.instanceId().trim());
        }
        int sessionMs = Math.toIntExact(properties.sessionTimeout().toMillis());
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionMs);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(500, sessionMs / 4));
        // a record that does not parse reaches the error handler as a DeserializationException
        // instead of failing every poll of its partition
        return new DefaultKafkaConsumerFactory<>(config,
                new ErrorHandlingDeserializer<>(Topics.NOTIFICATIONS.keySerde().deserializer()),
                new ErrorHandlingDeserializer<>(Topics.NOTIFICATIONS.valueSerde().deserializer()));
    }

    private static DeadLetterPublishingRecoverer deadLetterPublisher(KafkaTemplate<String, NotificationRequested> deadLetterTemplate) {
        // The dead-letter topic has its own partition count (1); the default resolver would reuse the
        // source partition, which does not exist there. A negative partition lets the producer choose
        // by key, which is right for any partition count.
        DeadLetterPublishingRecoverer deadLetterPublisher = new DeadLetterPublishingRecoverer(deadLetterTemplate,
                (record, exception) -> new TopicPartition(Topics.NOTIFICATIONS_DEAD_LETTER.name(), -1));
        deadLetterPublisher.setHeadersFunction((record, exception) -> deliveryErrorHeaders(exception));
        return deadLetterPublisher;
    }

    private static DefaultErrorHandler errorHandler(NotifierProperties properties, NotificationRecoverer recoverer) {

        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(properties.maxAttempts() - 1);
        backOff.setInitialInterval(properties.initialBackoff().toMillis());
        backOff.setMultiplier(properties.backoffMultiplier());
        backOff.setMaxInterval(properties.maxBackoff().toMillis());

        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, backOff);
        handler.addNotRetryableExceptions(InvalidNotificationException.class);
        // the ledger unreachable: wait for it without end instead of using up the attempts; the record's state starts
        // over when the failure changes (PostgreSQL back, a channel failing), so it then has all its attempts
        handler.setBackOffFunction((record, failure) -> LedgerOutage.backOff(record, failure, properties));
        handler.setResetStateOnExceptionChange(true);
        // every failed attempt is already logged by the dispatcher with its reason
        handler.setLogLevel(KafkaException.Level.DEBUG);
        return handler;
    }

    /** Our own headers next to spring-kafka's {@code kafka_dlt-exception-*}: which channel failed, and why ({@link DeadLetterHeaders}). */
    static Headers deliveryErrorHeaders(Exception exception) {
        RecordHeaders headers = new RecordHeaders();
        NotificationRecoverer.deliveryFailure(exception).ifPresent(failure -> {
            String channels = failure.failedChannels().stream().map(c -> c.wireName()).collect(Collectors.joining(","));
            headers.add(DeadLetterHeaders.FAILED_CHANNELS, channels.getBytes(StandardCharsets.UTF_8));
            headers.add(DeadLetterHeaders.DELIVERY_ERROR, failure.failureSummary().getBytes(StandardCharsets.UTF_8));
        });
        return headers;
    }
}
