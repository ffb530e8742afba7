package io.agentgateway.schemas.deadletter;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends dead-lettered notifications again, once their channel works again (a mail relay back, a chat webhook
 * fixed): each dead letter the filter matches is written to {@code gateway.notifications.v1} as it was (same key,
 * same bytes), and the running notifier delivers it through its ledger. So a redrive never repeats what already went
 * out: a channel that was sent (or may have been) is skipped, only a failed one is tried again, and running the same
 * redrive twice sends nothing twice. Stateless: it reads the dead-letter topic from {@code since} (else its start) to
 * the end it had when it began.
 *
 * <p>Here, beside the notifications' topics, so that every reader of the dead letters uses it without the notifier
 * application: the launcher's {@code redrive-notifications}, the admin API's and the console's "send again".
 */
public final class DeadLetterRedrive {

    /** Which dead letters: all given parts must match; an empty part matches any. */
    public record Filter(Optional<Instant> since, Optional<String> kind, Optional<String> workspaceId) {
        public static Filter all() {
            return new Filter(Optional.empty(), Optional.empty(), Optional.empty());
        }

        boolean matches(NotificationRequested notification) {
            return kind.map(k -> k.equals(notification.kind())).orElse(true)
                    && workspaceId.map(w -> w.equals(notification.workspaceId())).orElse(true);
        }
    }

    /**
     * A dead letter sent again (or, in a dry run, that would be), and why it was dead-lettered. {@code position}
     * names the dead-letter record itself ({@code <partition>-<offset>}): a notification dead-lettered twice (sent
     * again, failed again) is two records.
     */
    public record Redriven(String notificationId, String kind, String workspaceId, Instant deadLetteredAt,
                           String deliveryError, String position, String subject, String failedChannels) {
        public Redriven(String notificationId, String kind, String workspaceId, Instant deadLetteredAt, String deliveryError) {
            this(notificationId, kind, workspaceId, deadLetteredAt, deliveryError, null, null, null);
        }

        public String describe() {
            return notificationId + " " + kind + " workspace " + workspaceId + ", dead-lettered " + deadLetteredAt
                    + (deliveryError == null ? "" : " (" + deliveryError + ")");
        }
    }

    /** @param passedOver dead letters the filter did not match; @param unreadable records that are no notification */
    public record Result(List<Redriven> redriven, int passedOver, int unreadable) {}

    private DeadLetterRedrive() {}

    /**
     * @param dryRun  list what would be sent, send nothing
     * @param timeout how long Kafka may take to answer at all
     * @throws org.apache.kafka.common.errors.TimeoutException when Kafka does not answer within {@code timeout}
     */
    public static Result run(String bootstrapServers, Filter filter, boolean dryRun, Duration timeout) {
        List<ConsumerRecord<String, byte[]>> deadLetters = read(bootstrapServers, filter.since(), timeout);
        List<Redriven> redriven = new ArrayList<>();
        List<Future<RecordMetadata>> writes = new ArrayList<>();
        int passedOver = 0;
        int unreadable = 0;
        try (KafkaProducer<String, byte[]> producer = dryRun ? null : producer(bootstrapServers, timeout)) {
            for (ConsumerRecord<String, byte[]> deadLetter : deadLetters) {
                NotificationRequested notification = parse(deadLetter);
                if (notification == null) {
                    unreadable++;
                    continue;
                }
                if (!filter.matches(notification)) {
                    passedOver++;
                    continue;
                }
                if (producer != null) {
                    // the key keeps the workspace's partition, hence its order with its other notifications
                    writes.add(producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), deadLetter.key(),
                            deadLetter.value())));
                }
                redriven.add(describe(deadLetter, notification));
            }
            if (producer != null) {
                producer.flush();
            }
            for (Future<RecordMetadata> write : writes) {
                awaitWritten(write);
            }
        }
        return new Result(List.copyOf(redriven), passedOver, unreadable);
    }

    /**
     * Sends one dead letter again: the record at {@code position} ({@link Redriven#position()}), only when it is a
     * notification of {@code workspaceId}; written to {@code gateway.notifications.v1} as it was, for the notifier's
     * ledger to deliver what failed and nothing that went out. Empty when there is no such dead letter.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when Kafka does not answer within {@code timeout}
     */
    public static Optional<Redriven> redriveOne(String bootstrapServers, String workspaceId, String position, Duration timeout) {
        Optional<TopicPartition> partition = partitionOf(position);
        long offset = offsetOf(position);
        if (partition.isEmpty() || offset < 0) {
            return Optional.empty();
        }
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        ConsumerRecord<String, byte[]> found = null;
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition at = partition.get();
            if (consumer.partitionsFor(at.topic(), timeout).stream().noneMatch(p -> p.partition() == at.partition())) {
                return Optional.empty();
            }
            consumer.assign(List.of(at));
            long end = consumer.endOffsets(List.of(at), timeout).get(at);
            long start = consumer.beginningOffsets(List.of(at), timeout).get(at);
            if (offset < start || offset >= end) {
                return Optional.empty();
            }
            consumer.seek(at, offset);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (found == null && System.nanoTime() < deadline && consumer.position(at, timeout) <= offset) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() == offset) {
                        found = record;
                    }
                }
            }
        }
        NotificationRequested notification = found == null ? null : parse(found);
        if (notification == null || !workspaceId.equals(notification.workspaceId())) {
            return Optional.empty();
        }
        try (KafkaProducer<String, byte[]> producer = producer(bootstrapServers, timeout)) {
            awaitWritten(producer.send(new ProducerRecord<>(Topics.NOTIFICATIONS.name(), found.key(), found.value())));
        }
        return Optional.of(describe(found, notification));
    }

    private static Redriven describe(ConsumerRecord<String, byte[]> deadLetter, NotificationRequested notification) {
        return new Redriven(notification.notificationId(), notification.kind(), notification.workspaceId(),
                Instant.ofEpochMilli(deadLetter.timestamp()), header(deadLetter, DeadLetterHeaders.DELIVERY_ERROR),
                deadLetter.partition() + "-" + deadLetter.offset(), notification.subject(),
                header(deadLetter, DeadLetterHeaders.FAILED_CHANNELS));
    }

    private static Optional<TopicPartition> partitionOf(String position) {
        int dash = position == null ? -1 : position.indexOf('-');
        if (dash <= 0 || !position.matches("[0-9]{1,9}-[0-9]{1,18}")) {
            return Optional.empty();
        }
        return Optional.of(new TopicPartition(Topics.NOTIFICATIONS_DEAD_LETTER.name(), Integer.parseInt(position.substring(0, dash))));
    }

    private static long offsetOf(String position) {
        return position != null && position.matches("[0-9]{1,9}-[0-9]{1,18}")
                ? Long.parseLong(position.substring(position.indexOf('-') + 1)) : -1;
    }

    private static List<ConsumerRecord<String, byte[]>> read(String bootstrapServers, Optional<Instant> since, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.NOTIFICATIONS_DEAD_LETTER.name(), timeout).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            if (since.isPresent()) {
                Map<TopicPartition, Long> at = new HashMap<>();
                partitions.forEach(p -> at.put(p, since.get().toEpochMilli()));
                Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(at, timeout);
                // no record at or after the time: nothing to read there
                partitions.forEach(p -> consumer.seek(p, from.get(p) == null ? ends.get(p) : from.get(p).offset()));
            } else {
                consumer.seekToBeginning(partitions);
            }
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            while (partitions.stream().anyMatch(p -> consumer.position(p, timeout) < ends.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        records.add(record);
                    }
                }
            }
            return records;
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrapServers, Duration timeout) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeout.toMillis(), 1_000) + 1_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(timeout.toMillis(), 1_000),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis()),
                new StringSerializer(), new ByteArraySerializer());
    }

    private static void awaitWritten(Future<RecordMetadata> write) {
        try {
            write.get();
        } catch (ExecutionException failed) {
            throw new IllegalStateException("could not write to " + Topics.NOTIFICATIONS.name() + ": "
                    + failed.getCause().getMessage(), failed.getCause());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing to " + Topics.NOTIFICATIONS.name());
        }
    }

    private static NotificationRequested parse(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            return null;
        }
        try {
            NotificationRequested notification = Topics.NOTIFICATIONS_DEAD_LETTER.valueSerde().deserializer()
                    .deserialize(record.topic(), record.value());
            return notification == null || notification.notificationId() == null ? null : notification;
        } catch (SerializationException | IllegalArgumentException notANotification) {
            return null;
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
