package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that reads this instance's partition of the replies topic and hands each reply to
 * whoever waits for its command.
 *
 * <p>It uses {@code assign()} of exactly one partition and no consumer group: a group could
 * rebalance the partition away from the instance whose callers are waiting on it. It starts at the
 * end of the partition (older replies belong to requests nobody waits for any more) and reports
 * ready only once that end position is known, so that no reply to an accepted command can be
 * skipped. Before that it runs the prerequisites (topic creation, producer warm-up), retrying until
 * the broker answers, so the application starts even while the broker is down and simply fails
 * closed until then.
 */
final class ReplyListener {
    private static final Logger log = LoggerFactory.getLogger(ReplyListener.class);
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);

    private final Map<String, Object> consumerConfig;
    private final TopicPartition partition;
    private final PendingReplies pending;
    private final List<Runnable> prerequisites;
    private final Deserializer<Reply> replies = Topics.REPLIES.valueSerde().deserializer();
    private final Object readiness = new Object();

    private volatile boolean running;
    private volatile boolean ready;
    private volatile String state = "not started";
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    ReplyListener(Map<String, Object> consumerConfig, int partition, PendingReplies pending, List<Runnable> prerequisites) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.partition = new TopicPartition(Topics.REPLIES.name(), partition);
        this.pending = pending;
        this.prerequisites = List.copyOf(prerequisites);
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        state = "starting";
        thread = new Thread(this::run, "ingress-replies-p" + partition.partition());
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread; waits at most {@code grace} (a call stuck on a dead broker must not hang shutdown). */
    synchronized void stop(Duration grace) {
        if (!running) {
            return;
        }
        running = false;
        setReady(false);
        KafkaConsumer<String, byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        thread.interrupt();
        try {
            thread.join(grace.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean isReady() {
        return ready;
    }

    String state() {
        return state;
    }

    /** Blocks the calling thread until ready or until {@code timeout} has passed; returns readiness. */
    boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (readiness) {
            while (!ready) {
                long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
                if (remainingMillis <= 0) {
                    return false;
                }
                readiness.wait(remainingMillis);
            }
            return true;
        }
    }

    private void setReady(boolean value) {
        synchronized (readiness) {
            ready = value;
            readiness.notifyAll();
        }
    }

    private void run() {
        KafkaConsumer<String, byte[]> kafka = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
        consumer = kafka;
        try {
            // The outer loop re-positions after an unexpected consumer failure; requests waiting
            // across such a gap time out (504) rather than being answered from a guess.
            while (running && prepare(kafka)) {
                pollUntilFailure(kafka);
            }
        } finally {
            setReady(false);
            state = "stopped";
            Thread.interrupted(); // closing an interrupted consumer would throw instead of closing
            try {
                kafka.close(Duration.ofSeconds(1));
            } catch (RuntimeException e) {
                log.debug("closing the reply consumer failed", e);
            }
        }
    }

    /** @return true once positioned at the end of the partition, false when stopped first */
    private boolean prepare(KafkaConsumer<String, byte[]> kafka) {
        while (running) {
            try {
                // first prove the broker answers, with a call stop() can interrupt: the admin
                // calls of the prerequisites would otherwise hang shutdown while it is down
                kafka.partitionsFor(partition.topic(), CALL_TIMEOUT);
                prerequisites.forEach(Runnable::run);
                List<PartitionInfo> partitions = kafka.partitionsFor(partition.topic(), CALL_TIMEOUT);
                if (partitions == null || partition.partition() >= partitions.size()) {
                    throw new IllegalStateException("gateway.ingress.reply-partition=" + partition.partition()
                            + " but " + partition.topic() + " has " + (partitions == null ? 0 : partitions.size())
                            + " partitions (raise gateway.topics.reply-partitions or the topic's partition count)");
                }
                kafka.assign(List.of(partition));
                kafka.seekToEnd(List.of(partition));
                long position = kafka.position(partition, CALL_TIMEOUT);
                state = "ready at " + partition + " offset " + position;
                setReady(true);
                log.info("command gateway ready: waiting for replies on {} from offset {}", partition, position);
                return true;
            } catch (WakeupException | InterruptException e) {
                return false;
            } catch (RuntimeException e) {
                if (!running) {
                    return false;
                }
                state = "waiting for the broker: " + e.getMessage();
                log.warn("command gateway not ready yet ({}); retrying in {}", e.getMessage(), RETRY_BACKOFF);
                if (!sleepBeforeRetry()) {
                    return false;
                }
            }
        }
        return false;
    }

    private void pollUntilFailure(KafkaConsumer<String, byte[]> kafka) {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : kafka.poll(POLL_TIMEOUT)) {
                    dispatch(record);
                }
            }
        } catch (WakeupException | InterruptException e) {
            // stop() asked us to leave
        } catch (RuntimeException e) {
            setReady(false);
            state = "reply consumer failed: " + e.getMessage();
            log.error("reply consumer failed; re-positioning at the end of {}", partition, e);
            sleepBeforeRetry();
        }
    }

    private void dispatch(ConsumerRecord<String, byte[]> record) {
        String commandId = record.key();
        // replies to other instances' or earlier commands are skipped without parsing them
        if (commandId == null || !pending.isWaiting(commandId)) {
            return;
        }
        try {
            pending.complete(commandId, replies.deserialize(record.topic(), record.value()));
        } catch (SerializationException e) {
            log.error("unreadable reply to command {} at {}@{}", commandId, partition, record.offset(), e);
            pending.fail(commandId, new IllegalStateException("unreadable reply to command " + commandId, e));
        }
    }

    private boolean sleepBeforeRetry() {
        try {
            Thread.sleep(RETRY_BACKOFF.toMillis());
            return running;
        } catch (InterruptedException e) {
            return false;
        }
    }
}
