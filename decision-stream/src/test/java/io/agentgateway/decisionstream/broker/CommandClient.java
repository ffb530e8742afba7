package io.agentgateway.decisionstream.broker;

import static org.awaitility.Awaitility.await;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What an ingress instance does, reduced to a test: publish commands keyed by workspace and read the
 * replies from its own reply partition (assigned, no consumer group), starting at the end.
 */
final class CommandClient implements AutoCloseable {
    private final KafkaProducer<String, CommandEnvelope> producer;
    private final KafkaConsumer<String, Reply> replies;
    private final List<ConsumerRecord<String, Reply>> received = new ArrayList<>();

    CommandClient(String bootstrapServers, int replyPartition) {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 0,
                ProducerConfig.ACKS_CONFIG, "all"),
                Topics.COMMANDS.keySerde().serializer(), Topics.COMMANDS.valueSerde().serializer());
        replies = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
                // an exactly-once stream's replies count only once committed
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                Topics.REPLIES.keySerde().deserializer(), Topics.REPLIES.valueSerde().deserializer());
        TopicPartition partition = new TopicPartition(Topics.REPLIES.name(), replyPartition);
        replies.assign(List.of(partition));
        replies.position(partition); // fixes "latest" now, before any command is sent
    }

    void send(CommandEnvelope envelope) {
        try {
            producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), envelope.workspaceId(), envelope)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish command " + envelope.commandId(), e);
        }
    }

    /** Publishes many commands at once (no reply awaited), then waits until the broker has them all. */
    void sendAll(List<CommandEnvelope> envelopes) {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>(envelopes.size());
        envelopes.forEach(e -> sent.add(producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), e.workspaceId(), e))));
        producer.flush();
        for (java.util.concurrent.Future<?> future : sent) {
            try {
                future.get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot publish commands", e);
            }
        }
    }

    /** Every reply this client has read so far. */
    List<Reply> repliesSeen() {
        return received.stream().map(ConsumerRecord::value).toList();
    }

    /** The reply to {@code commandId} and the partition it arrived on. */
    ConsumerRecord<String, Reply> awaitReply(String commandId, Duration timeout) {
        AtomicReference<ConsumerRecord<String, Reply>> found = new AtomicReference<>();
        await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ZERO).until(() -> {
            replies.poll(Duration.ofMillis(100)).forEach(received::add);
            received.stream().filter(r -> commandId.equals(r.key())).findFirst().ifPresent(found::set);
            return found.get() != null;
        });
        return found.get();
    }

    Reply request(CommandEnvelope envelope, Duration timeout) {
        send(envelope);
        return awaitReply(envelope.commandId(), timeout).value();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        replies.close(Duration.ofSeconds(5));
    }
}
