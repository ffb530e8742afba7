package io.agentgateway.approvalexecutor;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.actiongate.heldcall.HttpUpstreams;
import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import io.agentgateway.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Wires the approval executor: a spring-kafka record listener container of its own consumer group
 * on the events topic (declared as a bean, not through Boot's shared container factory, so no other
 * module's listener settings apply), committing after each poll's records were handled.
 */
@Configuration(proxyBeanMethods = false)
class ApprovalExecutorConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ApprovalExecutorConfiguration.class);
    /** Between polls a record may take up to MAX_POLL_INTERVAL before the group evicts this consumer. */
    private static final Duration MAX_POLL_INTERVAL = Duration.ofMinutes(15);
    /**
     * How long a run's outcome is offered to a decision stream that does not answer: the call ran, the approval says
     * executing until its outcome is recorded. Well inside MAX_POLL_INTERVAL with the held-call wait, the claim's
     * attempts and the run before it.
     */
    static final Duration RECORD_PATIENCE = Duration.ofMinutes(10);

    /**
     * The runner of held HTTP requests: where the proxy's tool connections ({@link HttpUpstreams}, a bean of the
     * proxy) send a call, else {@code gateway.executor.http-upstreams.<tool>}.
     */
    @Bean
    HttpHeldCallRunner httpHeldCallRunner(ReactorResourceFactory resources, ObjectProvider<HttpUpstreams> connections,
                                          ExecutorProperties properties, EgressClients egress) {
        HttpUpstreams configured = new ConfiguredHttpUpstreams(properties.httpUpstreams());
        HttpUpstreams fromConnections = connections.getIfAvailable();
        return new HttpHeldCallRunner(resources, fromConnections == null ? configured : fromConnections.orElse(configured),
                properties, egress);
    }

    @Bean
    @ConditionalOnProperty(name = "gateway.executor.enabled", havingValue = "true", matchIfMissing = true)
    ApprovedCallExecutor approvedCallExecutor(HeldCallRunners runners, HeldCallRepository heldCalls, HeldCallSeals seals,
                                              CommandGateway gateway, ExecutorProperties properties,
                                              ObjectProvider<GatewayTracing> tracing) {
        // one id per running instance: a claim it won is its own, and a restarted instance is another claimant
        String executorId = "approval-executor-" + UUID.randomUUID().toString().substring(0, 8);
        return new ApprovedCallExecutor(runners, heldCalls, seals,
                new ExecutionCommands(gateway, executorId, properties.commandAttempts(), RECORD_PATIENCE), properties,
                tracing.getIfAvailable(GatewayTracing::disabled));
    }

    @Bean
    @ConditionalOnProperty(name = "gateway.executor.enabled", havingValue = "true", matchIfMissing = true)
    ConcurrentMessageListenerContainer<String, byte[]> approvalExecutorContainer(
            KafkaProperties kafka, ExecutorProperties properties, ApprovedCallExecutor executor) {
        var consumers = new DefaultKafkaConsumerFactory<>(consumerProperties(kafka, properties),
                new StringDeserializer(), new ByteArrayDeserializer());
        ContainerProperties container = new ContainerProperties(Topics.EVENTS.name());
        // one offset commit per poll, not per record: the listener skips all but approval reviews, and a
        // synchronous commit for every event was a broker round trip (and an offsets-log write) per
        // evaluation. A crash re-reads at most one poll's records; the claim refuses a second run.
        container.setAckMode(ContainerProperties.AckMode.BATCH);
        container.setSyncCommits(true);
        container.setClientId(properties.groupId());
        container.setMessageListener(new ApprovalExecutorListener(executor));
        container.setPollTimeout(1000);
        var listener = new ConcurrentMessageListenerContainer<>(consumers, container);
        listener.setConcurrency(properties.concurrency());
        listener.setCommonErrorHandler(errorHandler());
        return listener;
    }

    /**
     * The executor throws only before a claim was granted to it, while the read model cannot be reached or the
     * decision stream does not answer the claim ({@link ApprovedCallExecutor.NotClaimedYet}): that event is delivered
     * again (seek back, nothing committed from it on) every 250 ms doubling to 5 s for as long as that lasts, and its
     * call runs once both answer. Anything else, which the executor does not throw (an Error), is tried once more,
     * then logged and skipped (the claim keeps a second try from running a call twice). Not "no retries": with that,
     * spring-kafka skips at once without asking the back-off function.
     */
    static DefaultErrorHandler errorHandler() {
        DefaultErrorHandler handler = new DefaultErrorHandler(new FixedBackOff(0, 1));
        handler.setBackOffFunction((record, failure) -> {
            ApprovedCallExecutor.NotClaimedYet notYet = notClaimedYet(failure);
            if (notYet == null) {
                return null;
            }
            log.warn("{}; event {}-{}@{} is delivered again until it can be, its call runs once", notYet.getMessage(),
                    record.topic(), record.partition(), record.offset());
            ExponentialBackOff untilAnswered = new ExponentialBackOff(250, 2.0);
            untilAnswered.setMaxInterval(5_000);
            return untilAnswered;
        });
        handler.setResetStateOnExceptionChange(true);
        // each redelivery is expected while PostgreSQL or the decision stream is away: the line above says it once
        handler.setLogLevel(KafkaException.Level.DEBUG);
        return handler;
    }

    private static ApprovedCallExecutor.NotClaimedYet notClaimedYet(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApprovedCallExecutor.NotClaimedYet notYet) {
                return notYet;
            }
        }
        return null;
    }

    static Map<String, Object> consumerProperties(KafkaProperties kafka, ExecutorProperties properties) {
        // what every client of the gateway waits on a broker (KafkaClientTimeouts), then the operator's settings
        Map<String, Object> props = new HashMap<>(KafkaClientTimeouts.consumer());
        props.putAll(kafka.buildConsumerProperties());
        props.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        props.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, properties.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // a new group starts from the beginning: an approval reviewed before the first start still runs,
        // and older ones stop at the read model (ended) or at the claim (refused)
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // one record may hold the thread for a run (held-call wait + claim + HTTP timeout + record):
        // few records per poll, and time enough between polls, so the group does not evict a busy executor
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50);
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) MAX_POLL_INTERVAL.toMillis());
        // fetch in batches, as the projector does: an approved call may start a quarter second later, and
        // the broker answers this group a few times a second instead of once per event
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 64 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 250);
        // failover in seconds, as the projector and notifier groups: a dead replica's approvals move on
        int sessionMs = Math.toIntExact(properties.sessionTimeout().toMillis());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionMs);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(500, sessionMs / 4));
        return props;
    }
}
