package io.agentgateway.backtest;

import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one workspace's events in log order: its partition of the events topic (the producer's own
 * partitioning of the key), from the first offset, because the decision inputs must be folded from the
 * start, up to the last stable offset at the moment the read begins ({@code read_committed}: an event
 * of an aborted transaction was never a decision). Records of other workspaces on the partition are
 * skipped by comparing key bytes, before any JSON is parsed; records that do not parse are counted and
 * skipped ({@link ReplayJson}). {@code assign()} without a consumer group: nothing is committed, nobody
 * else is rebalanced.
 */
final class EventLogReader {
    private static final Duration MAX_POLL = Duration.ofMillis(500);

    private final Map<String, Object> config;
    private final String topic;
    private final Duration connectTimeout;

    /** @param clientConfig  connection settings (bootstrap servers, security); the rest is set here */
    EventLogReader(Map<String, Object> clientConfig, String topic, Duration connectTimeout) {
        this.config = consumerConfig(clientConfig);
        this.topic = topic;
        this.connectTimeout = connectTimeout;
    }

    LogSpan read(String workspaceId, Duration limit, Consumer<EventEnvelope> sink) {
        return read(workspaceId, limit, System.nanoTime() + limit.toNanos(), ReplayJson::envelope, sink);
    }

    /**
     * Reads the workspace's records of this reader's topic, each decoded by {@code decode} (null: undecodable or not
     * wanted, counted as undecodable), until {@code deadline} ({@link System#nanoTime()}; {@code limit} is the whole
     * read's time a timeout names).
     */
    <T> LogSpan read(String workspaceId, Duration limit, long deadline, Function<byte[], T> decode,
                     Consumer<T> sink) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, WorkspacePartition.of(workspaceId, partitionCount(consumer)));
            consumer.assign(List.of(partition));
            long start = consumer.beginningOffsets(List.of(partition), connectTimeout).get(partition);
            long end = consumer.endOffsets(List.of(partition), connectTimeout).get(partition);
            consumer.seek(partition, start);

            byte[] key = workspaceId.getBytes(StandardCharsets.UTF_8);
            long read = 0;
            long undecodable = 0;
            long position = start;
            while (position < end) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new EventLogTimeoutException(limit, position, end);
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(min(Duration.ofNanos(left), MAX_POLL));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (record.offset() >= end) {
                        break;
                    }
                    read++;
                    if (Arrays.equals(key, record.key())) {
                        T decoded = decode.apply(record.value());
                        if (decoded == null) {
                            undecodable++;
                        } else {
                            sink.accept(decoded);
                        }
                    }
                }
                position = consumer.position(partition, connectTimeout);
            }
            return new LogSpan(topic, partition.partition(), start, end, read, undecodable);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new EventLogUnavailableException("Kafka at " + servers() + " did not answer within " + connectTimeout, e);
        } catch (KafkaException e) {
            throw new EventLogUnavailableException("cannot read " + topic + " from Kafka at " + servers() + ": " + describe(e), e);
        }
    }

    private int partitionCount(KafkaConsumer<byte[], byte[]> consumer) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, connectTimeout);
        if (partitions == null || partitions.isEmpty()) {
            throw new EventLogUnavailableException("the topic " + topic + " does not exist on Kafka at " + servers(), null);
        }
        return partitions.size();
    }

    private Object servers() {
        return config.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    static Map<String, Object> consumerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        config.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "backtest-" + UUID.randomUUID().toString().substring(0, 8));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // a back-test against a broker without the topic must not create it with broker defaults
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // a whole history in few round trips
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        config.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        config.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        return config;
    }

    /** The failure and, when Kafka wrapped it ("Failed to construct kafka consumer"), what it wrapped: for the operator. */
    static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? String.valueOf(failure.getMessage())
                : failure.getMessage() + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
}
