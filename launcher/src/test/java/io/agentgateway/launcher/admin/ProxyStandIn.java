package io.agentgateway.launcher.admin;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the HTTP proxy will do when a call needs approval, until it exists: seal the exact request
 * with the gateway's key and send it with its evaluation, straight onto the commands topic as the
 * ingress would (an API-key actor, scope proxy). Also plays the broker redelivering an event.
 */
final class ProxyStandIn {
    private ProxyStandIn() {}

    /** @return the approval id the decision stream derives for the command */
    static String holdForApproval(GatewayHarness.TestWorkspace ws, Tool tool, String action, HeldCall call) {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        HeldCallSeal seal = new HeldCallSeal(SecretBox.fromBase64Key(gateway.secrets().secretsKey()));
        EvaluateAction evaluate = new EvaluateAction(tool, action, RiskLevel.HIGH, "agent-1", null, null, null, null,
                null, ActionSource.PROXY, Scope.PROXY, false, seal.seal(tool, action, call));
        String commandId = UUID.randomUUID().toString();
        CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, commandId, ws.id(),
                UUID.randomUUID().toString(), Instant.now(), null, Actor.apiKey(ApiKeys.hash(ws.apiKey()), "agent-1"), evaluate);
        try (KafkaProducer<String, CommandEnvelope> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, gateway.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                Topics.COMMANDS.keySerde().serializer(), Topics.COMMANDS.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), ws.id(), envelope)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not send the held call", e);
        }
        return DerivedIds.approvalId(commandId);
    }

    /** Writes the workspace's ApprovalReviewed record of {@code approvalId} to the events topic again, byte for byte. */
    static void redeliverReview(String workspaceId, String approvalId) {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        byte[] review = null;
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, gateway.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(Topics.EVENTS.name()).forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (review == null && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (workspaceId.equals(record.key()) && Topics.EVENTS.valueSerde().deserializer()
                            .deserialize(record.topic(), record.value()).event() instanceof ApprovalReviewed reviewed
                            && reviewed.approvalId().equals(approvalId)) {
                        review = record.value();
                    }
                }
            }
        }
        if (review == null) {
            throw new IllegalStateException("no ApprovalReviewed event for approval " + approvalId);
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, gateway.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.EVENTS.name(), workspaceId, review)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not redeliver the review", e);
        }
    }
}
