package io.agentgateway.console.live;

import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.gatewayclient.LiveEvents;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Tells open console pages that something of a workspace changed, within a second of the event. The events come from
 * the ingress's reader of {@code gateway.events.v1} ({@link LiveEvents}: every partition assigned, no consumer group,
 * from the end, only while somebody watches): a page shows what the read model holds and is told only about what
 * happens while it is open. When the reader had to start again at the end, every open page of the workspace fetches
 * anew (what changed meanwhile was read by nobody).
 *
 * <p>A page fetches what it shows from the read model, which the projector writes after the event: so a change is
 * announced once the read model shows it (the approval's row updated at the event's time, the audit row there),
 * checked every {@value #PROBE_MILLIS} ms and at most {@link #PROBE_LIMIT} after the event (then announced anyway).
 * Nothing is looked at for a workspace nobody watches. {@link #live()} says whether the reader polled the topic
 * recently; the pages say "not live" otherwise.
 */
@Component
public class EventFeed implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(EventFeed.class);
    static final long PROBE_MILLIS = 20;
    static final Duration PROBE_LIMIT = Duration.ofSeconds(2);

    /** What the read model must show before a change is announced. */
    record Probe(LiveTopic topic, String table, String id, Instant occurredAt, Instant seenAt) {}

    private final LiveEvents events;
    private final JdbcClient jdbc;
    private final Duration liveStale;
    private final Map<UUID, Watchers> watchers = new ConcurrentHashMap<>();
    private final Map<UUID, Map<LiveTopic, Probe>> pending = new ConcurrentHashMap<>();
    private volatile boolean running;
    private ScheduledExecutorService prober;

    EventFeed(LiveEvents events, JdbcClient jdbc, ConsoleProperties properties) {
        this.events = events;
        this.jdbc = jdbc;
        this.liveStale = properties.liveStale();
    }

    /** The workspace's changes while subscribed; completes never (cancel to leave). */
    public Flux<LiveTopic> changes(UUID workspaceId) {
        return Flux.defer(() -> {
            Watchers joined;
            synchronized (watchers) {
                joined = watchers.computeIfAbsent(workspaceId, id -> new Watchers(events.of(id)
                        .subscribe(signal -> heard(id, signal))));
                joined.count++;
            }
            return joined.sink.asFlux().doFinally(signal -> {
                synchronized (watchers) {
                    if (--joined.count == 0 && watchers.remove(workspaceId, joined)) {
                        joined.events.dispose();
                        pending.remove(workspaceId);
                    }
                }
            });
        });
    }

    /** Whether the feed read the events topic within {@code gateway.console.live-stale}. */
    public boolean live() {
        return events.state(liveStale) == LiveEvents.State.LIVE;
    }

    /** {@code ok} (live), {@code starting} (the reader is being positioned for the first watcher) or {@code stale}. */
    public String state() {
        return switch (events.state(liveStale)) {
            case LIVE -> "ok";
            case STARTING -> "starting";
            case STALE -> "stale";
        };
    }

    private static final class Watchers {
        final Sinks.Many<LiveTopic> sink = Sinks.many().multicast().directBestEffort();
        final Disposable events;
        int count;

        Watchers(Disposable events) {
            this.events = events;
        }
    }

    @Override
    public void start() {
        running = true;
        prober = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "console-live-probe");
            t.setDaemon(true);
            return t;
        });
        prober.scheduleWithFixedDelay(this::probe, PROBE_MILLIS, PROBE_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        running = false;
        if (prober != null) {
            prober.shutdownNow();
        }
        watchers.values().forEach(w -> {
            w.events.dispose();
            w.sink.tryEmitComplete();
        });
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** On the reader's thread: an event becomes a probe; a new position makes every open page fetch anew. */
    private void heard(UUID workspaceId, LiveEvents.Signal signal) {
        if (signal instanceof LiveEvents.Event event) {
            // a newer change of the same kind replaces the waiting one, but keeps its first sight: under a steady
            // stream of changes a page is still told at least every PROBE_LIMIT
            probeOf(event.envelope()).forEach(probe -> pending.computeIfAbsent(workspaceId, id -> new ConcurrentHashMap<>())
                    .merge(probe.topic(), probe, (waiting, newer) -> new Probe(newer.topic(), newer.table(), newer.id(),
                            newer.occurredAt(), waiting.seenAt())));
            return;
        }
        Watchers w = watchers.get(workspaceId);
        if (w != null) {
            for (LiveTopic topic : LiveTopic.values()) {
                w.sink.tryEmitNext(topic);
            }
        }
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
}
