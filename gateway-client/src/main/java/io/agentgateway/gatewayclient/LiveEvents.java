package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * The decision stream's events ({@code gateway.events.v1}) as this replica reads them while they happen, for whoever
 * in the ingress reacts to a workspace's changes (the console's open pages, the MCP gate's waiting task requests).
 *
 * <p>One consumer per replica, with {@code assign()} of every partition and no consumer group: every replica sees every
 * event and none takes partitions from another (a group would hand each event to one replica, whose callers may not be
 * the ones waiting). It reads from the end: a watcher reads the state it starts from itself (after subscribing) and
 * is told only what happens from then on.
 *
 * <p>It runs only while somebody watches: with nothing watched the replica reads nothing of the topic. The consumer is
 * made when the first workspace is watched and closed {@link #IDLE_CLOSE} after the last watcher left. Records of a
 * workspace nobody watches are skipped by their key, unparsed. Whenever the consumer was (re)positioned at the end (its
 * start, a partition added, a failure), every workspace watched then is sent {@link Positioned}: what happened before
 * was read by nobody, so a watcher that keeps a view reads it anew.
 *
 * <p>Signals are handed over on the consumer's thread: a watcher hands any work off (blocking there would hold every
 * other watcher's events). A watcher that cannot keep up loses signals ({@code directBestEffort}), never slows the rest.
 */
@Component
public class LiveEvents implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(LiveEvents.class);
    /** How long the consumer stays open after the last watcher left (a page reload comes back within it). */
    static final Duration IDLE_CLOSE = Duration.ofSeconds(30);
    /** How often the partition count is compared with the topic's (partitions added are assigned then). */
    static final Duration PARTITION_CHECK = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final long RETRY_MILLIS = 1_000;

    /** What a watcher of a workspace is told. */
    public sealed interface Signal permits Event, Positioned {}

    /** One event of the watched workspace, in log order within the workspace. */
    public record Event(EventEnvelope envelope) implements Signal {}

    /** The reader (re)started at the end of the topic: the workspace's events before this one were not read here. */
    public record Positioned() implements Signal {
        static final Positioned NOW = new Positioned();
    }

    /** Whether the reader reads the topic: {@code LIVE}, {@code STARTING} (being positioned), or {@code STALE}. */
    public enum State { LIVE, STARTING, STALE }

    private final Map<String, Object> consumerConfig;
    private final Deserializer<EventEnvelope> envelopes = Topics.EVENTS.valueSerde().deserializer();
    private final Map<UUID, Watchers> watchers = new ConcurrentHashMap<>();
    private final Object wake = new Object();
    private volatile boolean running;
    private volatile boolean positioned;
    private volatile Instant lastPoll = Instant.EPOCH;
    private volatile Instant startingSince = Instant.EPOCH;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    @Autowired
    LiveEvents(KafkaProperties kafka) {
        this(GatewayKafkaConfigs.eventsConsumer(kafka));
    }

    /** @param consumerConfig the consumer's settings (no group: the reader assigns every partition itself) */
    public LiveEvents(Map<String, Object> consumerConfig) {
        this.consumerConfig = Map.copyOf(consumerConfig);
    }

    /** A workspace's watchers: one sink, shared by all, and how many they are. */
    private static final class Watchers {
        final Sinks.Many<Signal> sink = Sinks.many().multicast().directBestEffort();
        int count;
    }

    /**
     * The workspace's events from now on, and a {@link Positioned} whenever the reader had to start again at the end;
     * never completes while the reader runs (cancel to leave). Subscribe before reading the state the events change.
     */
    public Flux<Signal> of(UUID workspaceId) {
        return Flux.defer(() -> {
            Watchers joined;
            synchronized (watchers) {
                joined = watchers.computeIfAbsent(workspaceId, id -> new Watchers());
                joined.count++;
            }
            synchronized (wake) {
                wake.notifyAll();
            }
            return joined.sink.asFlux().doFinally(signal -> {
                synchronized (watchers) {
                    if (--joined.count == 0) {
                        watchers.remove(workspaceId, joined);
                    }
                }
            });
        });
    }

    /** Whether the reader read the topic within {@code stale}, is being positioned (for at most {@code stale}), or neither. */
    public State state(Duration stale) {
        Instant now = Instant.now();
        if (running && positioned && lastPoll.isAfter(now.minus(stale))) {
            return State.LIVE;
        }
        return running && !positioned && now.isBefore(startingSince.plus(stale)) ? State.STARTING : State.STALE;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::consume, "ingress-live-events");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        synchronized (wake) {
            wake.notifyAll();
        }
        KafkaConsumer<String, byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchers.values().forEach(w -> w.sink.tryEmitComplete());
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void consume() {
        while (running) {
            if (!awaitWatchers()) {
                return;
            }
            startingSince = Instant.now();
            try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer = c;
                List<TopicPartition> partitions = partitions(c);
                if (partitions.isEmpty()) {
                    sleep(RETRY_MILLIS);
                    continue;
                }
                c.assign(partitions);
                c.seekToEnd(partitions);
                partitions.forEach(partition -> c.position(partition, CALL_TIMEOUT));
                positioned = true;
                lastPoll = Instant.now();
                watchers.values().forEach(w -> w.sink.tryEmitNext(Positioned.NOW));
                readUntilIdle(c, partitions);
            } catch (WakeupException | InterruptException stopping) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    log.warn("live events: {} cannot be read ({}); watchers are told nothing meanwhile",
                            Topics.EVENTS.name(), e.toString());
                    sleep(RETRY_MILLIS);
                }
            } finally {
                consumer = null;
                positioned = false;
            }
        }
    }

    /** Polls until nobody watched for {@link #IDLE_CLOSE}, or partitions were added (then the caller assigns them all). */
    private void readUntilIdle(KafkaConsumer<String, byte[]> c, List<TopicPartition> partitions) {
        Instant checked = Instant.now();
        Instant lastWatched = Instant.now();
        while (running) {
            var records = c.poll(POLL);
            Instant now = Instant.now();
            lastPoll = now;
            for (ConsumerRecord<String, byte[]> record : records) {
                handOn(record);
            }
            if (!watchers.isEmpty()) {
                lastWatched = now;
            } else if (now.isAfter(lastWatched.plus(IDLE_CLOSE))) {
                return; // nobody watches any more: stop reading the topic
            }
            if (now.isAfter(checked.plus(PARTITION_CHECK))) {
                checked = now;
                if (partitions(c).size() != partitions.size()) {
                    return;
                }
            }
        }
    }

    /** Waits until a workspace is watched (true), or the reader stops (false). */
    private boolean awaitWatchers() {
        synchronized (wake) {
            while (running && watchers.isEmpty()) {
                try {
                    wake.wait(1_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return running;
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> c) {
        List<PartitionInfo> infos = c.partitionsFor(Topics.EVENTS.name(), CALL_TIMEOUT);
        List<TopicPartition> partitions = new ArrayList<>();
        if (infos != null) {
            infos.forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        }
        return partitions;
    }

    private void handOn(ConsumerRecord<String, byte[]> record) {
        UUID workspaceId;
        try {
            workspaceId = UUID.fromString(record.key());
        } catch (RuntimeException notAWorkspace) {
            return;
        }
        Watchers w = watchers.get(workspaceId);
        if (w == null) {
            return; // nobody watches: not even parsed
        }
        EventEnvelope envelope;
        try {
            envelope = envelopes.deserialize(record.topic(), record.value());
        } catch (RuntimeException unreadable) {
            // a newer writer's event this reader does not know: nothing to tell about it
            log.debug("live events: unreadable record at {}-{}@{}", record.topic(), record.partition(), record.offset());
            return;
        }
        if (envelope != null) {
            w.sink.tryEmitNext(new Event(envelope));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
