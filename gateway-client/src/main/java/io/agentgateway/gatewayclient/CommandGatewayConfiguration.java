package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the command gateway from the standard {@code spring.kafka.*} keys and {@code gateway.*} keys. */
@Configuration(proxyBeanMethods = false)
class CommandGatewayConfiguration {
    private static final Logger log = LoggerFactory.getLogger(CommandGatewayConfiguration.class);

    @Bean
    CommandGateway commandGateway(KafkaProperties kafka, IngressProperties ingress, TopicLayoutProperties topics,
            ObjectProvider<LocalReplyChannel> localReplies, ObjectProvider<MeterRegistry> meters,
            ObjectProvider<GatewayTracing> tracing) {
        // a channel exists only where a launcher runs the decision stream in this process (the embedded default)
        return create(kafka, ingress, topics, localReplies.getIfAvailable(), meters.getIfAvailable(SimpleMeterRegistry::new),
                tracing.getIfAvailable(GatewayTracing::disabled));
    }

    /**
     * @param localReplies the decision stream's channel in this process, or null (replies through Kafka only)
     * @param meters       where the give-up reports are counted ({@link CallerGaveUpReports})
     */
    static CommandGateway create(KafkaProperties kafka, IngressProperties ingress, TopicLayoutProperties topics,
            LocalReplyChannel localReplies, MeterRegistry meters) {
        return create(kafka, ingress, topics, localReplies, meters, GatewayTracing.disabled());
    }

    /** @param tracing where the command spans go (each command record carries its context) */
    static CommandGateway create(KafkaProperties kafka, IngressProperties ingress, TopicLayoutProperties topics,
            LocalReplyChannel localReplies, MeterRegistry meters, GatewayTracing tracing) {
        // first: a journal another process holds stops the start before anything else is opened
        Optional<InFlightJournal> journal = Optional.ofNullable(ingress.journalDir())
                .map(directory -> InFlightJournal.open(directory, ingress.replyPartition()));
        if (journal.isEmpty()) {
            log.info("gateway.ingress.journal-dir is not set: should this process die, the evaluations it has not answered "
                    + "yet stay recorded as delivered (docs/operating-a-cluster.md, \"Deadlines and retries\")");
        }
        try {
            return create(kafka, ingress, topics, localReplies, meters, journal, tracing);
        } catch (RuntimeException e) {
            // its lock would outlive the failed start: a second try in this JVM would find it "in use"
            journal.ifPresent(InFlightJournal::close);
            throw e;
        }
    }

    private static CommandGateway create(KafkaProperties kafka, IngressProperties ingress, TopicLayoutProperties topics,
            LocalReplyChannel localReplies, MeterRegistry meters, Optional<InFlightJournal> journal, GatewayTracing tracing) {
        Producer<String, CommandEnvelope> producer = new KafkaProducer<>(GatewayKafkaConfigs.producer(kafka),
                Topics.COMMANDS.keySerde().serializer(), Topics.COMMANDS.valueSerde().serializer());
        String bootstrapServers = GatewayKafkaConfigs.bootstrapServers(kafka);
        List<Runnable> prerequisites = List.of(
                () -> TopicProvisioner.ensureTopics(bootstrapServers, topics.layout()),
                // fetches the commands topic's metadata now, on the listener thread, so that no
                // request thread ever waits for it
                () -> producer.partitionsFor(Topics.COMMANDS.name()));
        PendingReplies pending = new PendingReplies();
        ReplyListener replies = new ReplyListener(
                GatewayKafkaConfigs.replyConsumer(kafka, ingress.replyPartition()), ingress.replyPartition(), pending, prerequisites);
        return new CommandGateway(producer, replies, pending, ingress.replyPartition(), ingress.replyTimeout(), localReplies,
                new CallerGaveUpReports(producer, meters), journal, tracing);
    }

    @Bean
    CommandGatewayHealthIndicator commandGatewayHealthIndicator(CommandGateway gateway) {
        return new CommandGatewayHealthIndicator(gateway);
    }
}
