package io.agentgateway.projector.rebuild;

import io.agentgateway.schemas.Topics;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The events topic read from its first offset to its end: a plain consumer with every partition
 * assigned (no consumer group, nothing committed, nothing that could disturb the live projector's
 * group), large fetches, and {@code read_committed} like the live projector, so events of aborted
 * exactly-once transactions are left out of the rebuild exactly as they are left out of the live
 * tables. Values stay bytes here: parsing is the rebuild's, so a record that does not parse is
 * skipped like the live projector skips it.
 */
final class EventLogReader implements AutoCloseable {
    /** Small enough that the few polls queued for the writer stay young garbage, not survivors the GC copies. */
    private static final int MAX_POLL_RECORDS = 2_000;

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Duration timeout;

    private EventLogReader(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions, Duration timeout) {
        this.consumer = consumer;
        this.partitions = partitions;
        this.timeout = timeout;
    }

    /** @throws RebuildException if Kafka does not answer, or the topic is missing or no longer starts at offset 0 */
    static EventLogReader fromTheBeginning(String bootstrapServers, Duration timeout) {
        KafkaConsumer<String, byte[]> consumer;
        try {
            consumer = new KafkaConsumer<>(properties(bootstrapServers, timeout), new StringDeserializer(),
                    new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw new RebuildException("Kafka bootstrap servers '" + bootstrapServers + "' are not usable: " + e.getMessage(), e);
        }
        try {
            List<TopicPartition> partitions = partitionsOf(consumer, bootstrapServers, timeout);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            requireCompleteLog(consumer.beginningOffsets(partitions, timeout));
            return new EventLogReader(consumer, partitions, timeout);
        } catch (RuntimeException e) {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            if (e instanceof RebuildException) {
                throw e;
            }
            throw unreachable(bootstrapServers, timeout, e);
        }
    }

    private static Properties properties(String bootstrapServers, Duration timeout) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "gateway-read-model-rebuild");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        // larger fetches than the default 1 MiB per partition: fewer round trips for a replay
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024 * 1024);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return props;
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<String, byte[]> consumer, String bootstrapServers,
            Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(Topics.EVENTS.name(), timeout);
        if (infos == null || infos.isEmpty()) {
            throw new RebuildException("Kafka at " + bootstrapServers + " has no topic " + Topics.EVENTS.name()
                    + ": is this the gateway's Kafka, and has the gateway started once?");
        }
        return infos.stream().map(info -> new TopicPartition(info.topic(), info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
    }

    /** A log that lost its first events (retention) would rebuild read models that silently miss rows. */
    private static void requireCompleteLog(Map<TopicPartition, Long> beginnings) {
        beginnings.forEach((partition, offset) -> {
            if (offset > 0) {
                throw new RebuildException(partition + " starts at offset " + offset + ", not 0: the log no longer"
                        + " holds every event (retention or deleted records), so a rebuild would lose rows;"
                        + " nothing was changed");
            }
        });
    }

    static RebuildException unreachable(String bootstrapServers, Duration timeout, RuntimeException e) {
        if (e instanceof TimeoutException) {
            return new RebuildException("Kafka at " + bootstrapServers + " did not answer within " + timeout.toSeconds()
                    + " s: is the gateway (or its broker) running?", e);
        }
        return new RebuildException("Kafka at " + bootstrapServers + " failed: " + e.getMessage(), e);
    }

    ConsumerRecords<String, byte[]> poll(Duration wait) {
        return consumer.poll(wait);
    }

    /** The end of each partition now (the last stable offset, under read_committed). */
    Map<TopicPartition, Long> endOffsets() {
        return new LinkedHashMap<>(consumer.endOffsets(partitions, timeout));
    }

    /** The next offset to read of each partition. */
    Map<TopicPartition, Long> positions() {
        Map<TopicPartition, Long> positions = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            positions.put(partition, consumer.position(partition, timeout));
        }
        return positions;
    }

    /** Whether every partition has been read up to {@code target}. */
    boolean reached(Map<TopicPartition, Long> target) {
        return remaining(target) == 0;
    }

    /** Offsets left to read up to {@code target}. */
    long remaining(Map<TopicPartition, Long> target) {
        long remaining = 0;
        for (TopicPartition partition : partitions) {
            remaining += Math.max(0, target.getOrDefault(partition, 0L) - consumer.position(partition, timeout));
        }
        return remaining;
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
