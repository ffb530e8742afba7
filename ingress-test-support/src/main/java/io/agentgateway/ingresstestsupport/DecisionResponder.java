package io.agentgateway.ingresstestsupport;

import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A stand-in for the decision stream in the ingress's own tests: a real Kafka peer that reads the
 * commands topic and writes replies to the partition each envelope names. Tests tell it how to
 * answer per workspace; a workspace without an answer is recorded but never answered.
 */
public final class DecisionResponder implements AutoCloseable {
    private final KafkaConsumer<String, CommandEnvelope> consumer;
    private final KafkaProducer<String, Reply> producer;
    private final ConcurrentMap<String, Function<CommandEnvelope, Reply>> answers = new ConcurrentHashMap<>();
    private final List<Map.Entry<Predicate<CommandEnvelope>, Function<CommandEnvelope, Reply>>> answersByCommand = new CopyOnWriteArrayList<>();
    private final ConcurrentMap<String, List<CommandEnvelope>> received = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    public DecisionResponder(String bootstrapServers) {
        TopicProvisioner.ensureTopics(bootstrapServers, new TopicProvisioner.Layout(6, 4, (short) 1));
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                Topics.COMMANDS.keySerde().deserializer(), Topics.COMMANDS.valueSerde().deserializer());
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 0),
                Topics.REPLIES.keySerde().serializer(), Topics.REPLIES.valueSerde().serializer());
        List<TopicPartition> partitions = consumer.partitionsFor(Topics.COMMANDS.name(), Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // positioned before the constructor returns: no command sent afterwards can be missed
        partitions.forEach(p -> consumer.position(p, Duration.ofSeconds(30)));
        thread = new Thread(this::run, "test-decision-responder");
        thread.setDaemon(true);
        thread.start();
    }

    public void answer(String workspaceId, Function<CommandEnvelope, Reply> answer) {
        answers.put(workspaceId, answer);
    }

    /** For commands whose workspace the test cannot know in advance (the ingress chose it). */
    public void answerWhen(Predicate<CommandEnvelope> matches, Function<CommandEnvelope, Reply> answer) {
        answersByCommand.add(Map.entry(matches, answer));
    }

    public List<CommandEnvelope> received(String workspaceId) {
        return received.getOrDefault(workspaceId, List.of());
    }

    public static Reply ok(CommandEnvelope envelope) {
        return reply(envelope, ReplyStatus.OK, null, null);
    }

    public static Reply status(CommandEnvelope envelope, ReplyStatus status, String error) {
        return reply(envelope, status, error, null);
    }

    public static Reply evaluation(CommandEnvelope envelope, EvaluationOutcome outcome) {
        return reply(envelope, ReplyStatus.OK, null, outcome);
    }

    private static Reply reply(CommandEnvelope envelope, ReplyStatus status, String error, EvaluationOutcome outcome) {
        return new Reply(Reply.CURRENT_VERSION, envelope.commandId(), envelope.correlationId(), envelope.workspaceId(),
                envelope.replyPartition(), status, error, outcome);
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, CommandEnvelope> record : consumer.poll(Duration.ofMillis(200))) {
                    handle(record.value());
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void handle(CommandEnvelope envelope) {
        received.computeIfAbsent(envelope.workspaceId(), w -> new CopyOnWriteArrayList<>()).add(envelope);
        Function<CommandEnvelope, Reply> answer = answers.get(envelope.workspaceId());
        if (answer == null) {
            answer = answersByCommand.stream().filter(entry -> entry.getKey().test(envelope))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
        }
        if (answer == null || envelope.replyPartition() == null) {
            return;
        }
        Reply reply = answer.apply(envelope);
        if (reply != null) {
            producer.send(new ProducerRecord<>(Topics.REPLIES.name(), envelope.replyPartition(), envelope.commandId(), reply));
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        producer.close(Duration.ofSeconds(2));
    }
}
