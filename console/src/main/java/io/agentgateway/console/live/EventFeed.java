package io.agentgateway.console.live;

import io.agentgateway.console.ConsoleProperties;
import io.agentgateway.schemas.KafkaClientTimeouts;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Tells open console pages that something of a workspace changed, within a second of the event. One consumer per
 * replica on {@code gateway.events.v1}, with {@code assign()} of every partition and no consumer group (each replica
 * sees every event; none takes partitions from another), from the end: a page shows what the read model holds and is
 * told only about what happens while it is open.
 *
 * <p>The consumer runs only while somebody watches (an open page's event stream): with no console open the gateway
 * reads nothing more of the topic, so the decisions' cost is what it was. It starts from the end when the first page
 * subscribes and closes {@link #IDLE_CLOSE} after the last one left.
 *
 * <p>A page fetches what it shows from the read model, which the projector writes after the event: so a change is
 * announced once the read model shows it (the approval's row updated at the event's time, the audit row there),
 * checked every {@value #PROBE_MILLIS} ms and at most {@link #PROBE_LIMIT} after the event (then announced anyway).
 * Nothing is looked at for a workspace nobody watches. {@link #live()} says whether the feed polled the topic
 * recently; the pages say "not live" otherwise.
 */
@Component
public class EventFeed implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(EventFeed.class);
    static final long PROBE_MILLIS = 20;
    static final Duration PROBE_LIMIT = Duration.ofSeconds(2);
    static final Duration IDLE_CLOSE = Duration.ofSeconds(30);
    static final Duration PARTITION_CHECK = Duration.ofSeconds(30);

    /** What the read model must show before a change is announced. */
    record Probe(LiveTopic topic, String table, String id, Instant occurredAt, Instant seenAt) {}

    private final KafkaProperties kafka;
    private final JdbcClient jdbc;
    private final Duration liveStale;
    private final Map<UUID, Watchers> watchers = new ConcurrentHashMap<>();
    private final Map<UUID, Map<LiveTopic, Probe>> pending = new ConcurrentHashMap<>();
    private volatile Instant lastPoll = Instant.EPOCH;
    private final Object wake = new Object();
    private volatile boolean positioned;
    private volatile Instant startingSince = Instant.EPOCH;
    private volatile boolean running;
    private Thread thread;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private ScheduledExecutorService prober;

    EventFeed(KafkaProperties kafka, JdbcClient jdbc, ConsoleProperties properties) {
        this.kafka = kafka;
        this.jdbc = jdbc;
        this.liveStale = properties.liveStale();
    }

    /** The workspace's changes while subscribed; completes never (cancel to leave). */
    public Flux<LiveTopic> changes(UUID workspaceId) {
        return Flux.defer(() -> {
            Watchers w = watchers.computeIfAbsent(workspaceId, id -> new Watchers());
            w.count.incrementAndGet();
            synchronized (wake) {
                wake.notifyAll();
            }
            return w.sink.asFlux().doFinally(signal -> {
                if (w.count.decrementAndGet() == 0) {
                    watchers.remove(workspaceId, w);
                }
            });
        });
    }

    /** Whether the feed read the events topic within {@code gateway.console.live-stale}. */
    public boolean live() {
        return running && positioned && lastPoll.isAfter(Instant.now().minus(liveStale));
    }

    /** {@code ok} (live), {@code starting} (the consumer is being positioned for the first watcher) or {@code stale}. */
    public String state() {
        if (live()) {
            return "ok";
        }
        return running && !positioned && Instant.now().isBefore(startingSince.plus(liveStale)) ? "starting" : "stale";
    }

    private static final class Watchers {
        final Sinks.Many<LiveTopic> sink = Sinks.many().multicast().directBestEffort();
        final AtomicInteger count = new AtomicInteger();
    }

    @Override
    public void start() {
        running = true;
        prober = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "console-live-probe"));
        prober.scheduleWithFixedDelay(this::probe, PROBE_MILLIS, PROBE_MILLIS, TimeUnit.MILLISECONDS);
        thread = daemon(this::consume, "console-live-events");
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        synchronized (wake) {
            wake.notifyAll();
        }
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (prober != null) {
            prober.shutdownNow();
        }
        watchers.values().forEach(w -> w.sink.tryEmitComplete());
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private static Thread daemon(Runnable work, String name) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        return t;
    }

    private Map<String, Object> consumerConfig() {
        // what every client of the gateway waits on a broker (KafkaClientTimeouts), then the operator's settings
        Map<String, Object> config = new HashMap<>(KafkaClientTimeouts.consumer());
        config.putAll(kafka.buildConsumerProperties());
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "console-live-" + UUID.randomUUID().toString().substring(0, 8));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }

    private void consume() {
        while (running) {
            if (!awaitWatchers()) {
                return;
            }
            startingSince = Instant.now();
            try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumerConfig())) {
                consumer = c;
                List<TopicPartition> partitions = partitions(c);
                if (partitions.isEmpty()) {
                    sleep(1_000);
                    continue;
                }
                c.assign(partitions);
                c.seekToEnd(partitions);
                partitions.forEach(c::position);
                positioned = true;
                lastPoll = Instant.now();
                // what changed while the consumer was being positioned was read by nobody: every open page fetches anew
                watchers.values().forEach(w -> {
                    for (LiveTopic topic : LiveTopic.values()) {
                        w.sink.tryEmitNext(topic);
                    }
                });
                Instant checked = Instant.now();
                Instant lastWatched = Instant.now();
                while (running) {
                    var records = c.poll(Duration.ofMillis(250));
                    Instant now = Instant.now();
                    lastPoll = now;
                    for (ConsumerRecord<String, byte[]> record : records) {
                        handle(record);
                    }
                    if (!watchers.isEmpty()) {
                        lastWatched = now;
                    } else if (now.isAfter(lastWatched.plus(IDLE_CLOSE))) {
                        break; // nobody watches any more: stop reading the topic
                    }
                    if (now.isAfter(checked.plus(PARTITION_CHECK))) {
                        checked = now;
                        if (partitions(c).size() != partitions.size()) {
                            break; // partitions were added: assign them all again
                        }
                    }
                }
            } catch (WakeupException stopping) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    log.warn("console live feed: the events topic cannot be read ({}); pages say they are not live meanwhile",
                            e.toString());
                    sleep(1_000);
                }
            } finally {
                consumer = null;
                positioned = false;
            }
        }
    }

    /** Waits until a page watches (true), or the feed stops (false). */
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
        List<PartitionInfo> infos = c.partitionsFor(Topics.EVENTS.name(), Duration.ofSeconds(5));
        List<TopicPartition> partitions = new ArrayList<>();
        if (infos != null) {
            infos.forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        }
        return partitions;
    }

    private void handle(ConsumerRecord<String, byte[]> record) {
        UUID workspaceId;
        try {
            workspaceId = UUID.fromString(record.key());
        } catch (RuntimeException notAWorkspace) {
            return;
        }
        if (!watchers.containsKey(workspaceId)) {
            return; // nobody watches: not even parsed
        }
        EventEnvelope envelope;
        try {
            envelope = Topics.EVENTS.valueSerde().deserializer().deserialize(record.topic(), record.value());
        } catch (RuntimeException unreadable) {
            return;
        }
        if (envelope == null) {
            return;
        }
        // a newer change of the same kind replaces the waiting one, but keeps its first sight: under a steady stream of
        // changes a page is still told at least every PROBE_LIMIT
        probeOf(envelope).forEach(probe -> pending.computeIfAbsent(workspaceId, id -> new ConcurrentHashMap<>())
                .merge(probe.topic(), probe, (waiting, newer) -> new Probe(newer.topic(), newer.table(), newer.id(),
                        newer.occurredAt(), waiting.seenAt())));
    }

    /** What an event changes, and what the read model shows once it is projected. */
    static List<Probe> probeOf(EventEnvelope envelope) {
        DomainEvent event = envelope.event();
        Instant at = envelope.occurredAt();
        Instant now = Instant.now();
        String approvalId = null;
        if (event instanceof ApprovalRequested e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovalReviewed e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovalExpired e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovedCallClaimed e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovedCallExecuted e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovedCallFailed e) {
            approvalId = e.approvalId();
        } else if (event instanceof ApprovedCallCancelled e) {
            approvalId = e.approvalId();
        } else if (event instanceof EvaluationUndelivered e) {
            approvalId = e.approvalId();
        }
        List<Probe> probes = new ArrayList<>();
        if (approvalId != null) {
            probes.add(new Probe(LiveTopic.APPROVALS, "approval_requests", approvalId, at, now));
        }
        String auditId = null;
        if (event instanceof ActionEvaluated e) {
            auditId = e.auditLogId();
        } else if (event instanceof KillSwitchChanged e) {
            auditId = e.auditLogId();
        } else if (event instanceof LimitReached e) {
            auditId = e.auditLogId();
        }
        if (auditId != null) {
            probes.add(new Probe(LiveTopic.AUDIT, "audit_log", auditId, at, now));
        }
        if (event instanceof KillSwitchChanged e) {
            probes.add(new Probe(LiveTopic.KILL_SWITCH, "audit_log", e.auditLogId(), at, now));
        }
        return probes;
    }

    /** Announces each waiting change once the read model shows it, or once it waited long enough. */
    private void probe() {
        try {
            Instant now = Instant.now();
            pending.forEach((workspaceId, byTopic) -> byTopic.forEach((topic, probe) -> {
                if (projected(probe) || now.isAfter(probe.seenAt().plus(PROBE_LIMIT))) {
                    if (byTopic.remove(topic, probe)) {
                        Watchers w = watchers.get(workspaceId);
                        if (w != null) {
                            w.sink.tryEmitNext(topic);
                        }
                    }
                }
            }));
            pending.values().removeIf(Map::isEmpty);
        } catch (RuntimeException e) {
            log.debug("console live feed: probing the read model failed: {}", e.toString());
        }
    }

    private boolean projected(Probe probe) {
        UUID id;
        try {
            id = UUID.fromString(probe.id());
        } catch (IllegalArgumentException e) {
            return true;
        }
        if ("approval_requests".equals(probe.table())) {
            return jdbc.sql("select count(*) from approval_requests where id = :id and updated_at >= :at")
                    .param("id", id).param("at", java.sql.Timestamp.from(probe.occurredAt()))
                    .query(Long.class).single() > 0;
        }
        return jdbc.sql("select count(*) from audit_log where id = :id").param("id", id).query(Long.class).single() > 0;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
