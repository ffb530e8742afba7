package io.agentgateway.backtest;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Finds the command a recorded evaluation was decided from, in the commands topic (the log keeps it whole: the
 * audit row has only an excerpt), for the admin API's policy test of a recorded audit row. Reads only the
 * workspace's partition, from the first record written {@link #SLACK} before the command's acceptedAt (by record
 * time, which the ingress's producer sets when it sends, right after accepting) until the command is found or the
 * records are {@link #SLACK} past it. {@code assign()}, no consumer group, {@code read_committed}.
 */
public final class RecordedCommands {
    /** How far a command's record time may be from its acceptedAt (a send retried within the caller's deadline). */
    static final Duration SLACK = Duration.ofMinutes(5);
    private static final Duration MAX_POLL = Duration.ofMillis(500);

    private final Map<String, Object> config;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final String topic;

    /** @param clientConfig Kafka connection settings (bootstrap servers, security) */
    public RecordedCommands(Map<String, Object> clientConfig, Duration connectTimeout, Duration readTimeout) {
        this(clientConfig, connectTimeout, readTimeout, Topics.COMMANDS.name());
    }

    RecordedCommands(Map<String, Object> clientConfig, Duration connectTimeout, Duration readTimeout, String topic) {
        this.config = EventLogReader.consumerConfig(clientConfig);
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.topic = topic;
    }

    /**
     * The command {@code commandId} of {@code workspaceId} accepted at {@code acceptedAt} (a retry's id
     * {@code <id>/retry/<acceptedAt>} is found under {@code <id>}), or empty when the log no longer has it.
     *
     * @throws EventLogUnavailableException Kafka did not answer, or there is no commands topic
     * @throws EventLogTimeoutException     not found or ruled out within the read timeout
     */
    public Optional<CommandEnvelope> find(String workspaceId, String commandId, Instant acceptedAt) {
        String key = HistoryReplay.inputKey(commandId, acceptedAt);
        long deadline = System.nanoTime() + readTimeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, connectTimeout);
            if (partitions == null || partitions.isEmpty()) {
                throw new EventLogUnavailableException("the topic " + topic + " does not exist on Kafka at "
                        + config.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG), null);
            }
            TopicPartition partition = new TopicPartition(topic, WorkspacePartition.of(workspaceId, partitions.size()));
            consumer.assign(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), connectTimeout).get(partition);
            OffsetAndTimestamp from = consumer.offsetsForTimes(Map.of(partition, acceptedAt.minus(SLACK).toEpochMilli()),
                    connectTimeout).get(partition);
            if (from == null) {
                return Optional.empty();
            }
            consumer.seek(partition, from.offset());
            byte[] workspaceKey = workspaceId.getBytes(StandardCharsets.UTF_8);
            long past = acceptedAt.plus(SLACK).toEpochMilli();
            long position = from.offset();
            while (position < end) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new EventLogTimeoutException(readTimeout, position, end);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(left < MAX_POLL.toNanos() ? Duration.ofNanos(left) : MAX_POLL)) {
                    if (record.offset() >= end || record.timestamp() > past) {
                        return Optional.empty();
                    }
                    if (Arrays.equals(workspaceKey, record.key())) {
                        CommandEnvelope envelope = ReplayJson.command(record.value());
                        if (envelope != null && key.equals(HistoryReplay.inputKey(envelope.commandId(), envelope.acceptedAt()))) {
                            return Optional.of(envelope);
                        }
                    }
                }
                position = consumer.position(partition, connectTimeout);
            }
            return Optional.empty();
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new EventLogUnavailableException("Kafka did not answer within " + connectTimeout, e);
        } catch (KafkaException e) {
            throw new EventLogUnavailableException("cannot read " + topic + " from Kafka: " + EventLogReader.describe(e), e);
        }
    }
}
