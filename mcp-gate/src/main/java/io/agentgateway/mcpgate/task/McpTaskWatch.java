package io.agentgateway.mcpgate.task;

import io.agentgateway.gatewayclient.LiveEvents;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.ReadModelFailures;
import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTaskRecords.Owned;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.DomainEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.node.ObjectNode;

/**
 * The held-call tasks this replica waits on or follows: a 2025-11-25 {@code tasks/result} that waits for its task to
 * end, and the tasks whose status changes a client with an open stream here is told of
 * ({@code notifications/tasks/status}). No thread waits for any of them.
 *
 * <p><b>Woken by the log</b> ({@code gateway.mcp.tasks.watch=events}, the default). The decision stream publishes
 * every step of an approval on {@code gateway.events.v1} (reviewed, claimed, executed, failed, cancelled, expired,
 * withdrawn); every replica reads that topic ({@link LiveEvents}: no consumer group) for the workspaces it watches a
 * task of. An event of a watched task makes the task due: its approval is read from the read model, as
 * {@code tasks/get} reads it, and handed on. What a task says (an executed call's whole result included) is what the
 * read model holds, never a copy made from the event: the read model is where every later {@code tasks/get},
 * {@code tasks/list} and the status endpoint read it, on every replica. The projector writes the event's row a moment
 * after the event (its {@code updated_at} is the event's time; the projector's fetches wait up to its
 * {@code fetch-max-wait}, 100 ms, to fill a batch): until the row shows it, the due task is read again every
 * {@value #RETRY_MILLIS} ms for {@value #QUICK_RETRIES} reads, then twice as late each time up to every
 * {@value #LAST_RETRY_MILLIS} ms (a projector that is behind), for as long as the task is watched. When the reader of the
 * topic had to start again at its end ({@link LiveEvents.Positioned}), the workspace's watched tasks are read from the
 * read model for {@code read-model-wait}: an end written while nobody read shows there by then.
 *
 * <p>A wait listens before the task is looked up ({@link #awaitEnd}), so an end between the look-up and the wait is
 * not missed. With {@code watch=poll} the watch reads every watched task's approval every {@code watch-interval}
 * instead (one query for all; nothing when none is watched).
 *
 * <p>Bounded: {@code max-watched} tasks per replica and {@code max-watched-per-key} per API key; a wait is ended at its
 * deadline, a followed task once it ended or its lifetime is over, or when its client session closed. The read model
 * away: the waits go on until it is back or their deadlines pass (and a waiting {@code tasks/result} is answered that the
 * task still works).
 */
@Component
class McpTaskWatch implements DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(McpTaskWatch.class);
    static final long RETRY_MILLIS = 10;
    static final int QUICK_RETRIES = 50;
    static final long LAST_RETRY_MILLIS = 1_000;
    /** How often entries nobody waits on or follows any more are let go of (no read involved). */
    private static final Duration SWEEP = Duration.ofMinutes(1);

    private final McpTaskRecords records;
    private final McpTaskProperties properties;
    private final LiveEvents events;
    private final Map<Key, Watched> watched = new ConcurrentHashMap<>();
    /** The watched workspaces' subscriptions to the events, with how many entries each has; guarded by itself. */
    private final Map<UUID, Listening> listening = new HashMap<>();
    /** Every read of the read model, one at a time: reads after events, retries, polls and sweeps. */
    private final ScheduledExecutorService reader;
    private final AtomicBoolean readQueued = new AtomicBoolean();
    /** Reads in a row that found a due task not shown yet (this watch's thread only). */
    private int lagging;

    McpTaskWatch(McpTaskRecords records, McpTaskProperties properties, LiveEvents events) {
        this.records = records;
        this.properties = properties;
        this.events = events;
        this.reader = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread thread = new Thread(work, "mcp-task-watch");
            thread.setDaemon(true);
            return thread;
        });
        if (properties.watch() == McpTaskProperties.Watch.POLL) {
            long every = properties.watchInterval().toMillis();
            reader.scheduleAtFixedRate(this::poll, every, every, TimeUnit.MILLISECONDS);
        }
        reader.scheduleAtFixedRate(this::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A task is watched for the key that asked for it: another key's interest in the same id is an entry of its own. */
    private record Key(UUID taskId, String keyHash) {}

    /**
     * What is to be read of a task: until the read model shows the approval updated at {@code shownBy} (an event's
     * time; null: whatever it shows), and at least until {@code readUntil} while it has not ended (null: once).
     */
    private record Due(Instant shownBy, Instant readUntil) {
        static final Due ONCE = new Due(null, null);

        Due and(Due other) {
            return new Due(later(shownBy, other.shownBy), later(readUntil, other.readUntil));
        }

        private static Instant later(Instant a, Instant b) {
            return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
        }
    }

    /** A workspace's subscription to the events and how many of its tasks are watched. */
    private static final class Listening {
        final Disposable subscription;
        int entries;

        Listening(Disposable subscription) {
            this.subscription = subscription;
        }
    }

    /** A task watched here: whose it is, what it last was, who waits for its end and which client follows it. */
    private static final class Watched {
        final Key key;
        final UUID workspaceId;
        final Set<Sinks.One<McpTask>> waits = new CopyOnWriteArraySet<>();
        volatile McpTask last;
        volatile McpClientSession follower;
        volatile Instant followUntil;
        private Due due;

        Watched(Key key, UUID workspaceId) {
            this.key = key;
            this.workspaceId = workspaceId;
        }

        boolean idle(Instant now) {
            McpClientSession session = follower;
            return waits.isEmpty() && (session == null || session.isClosed() || followUntil == null || now.isAfter(followUntil));
        }

        synchronized void due(Due wanted) {
            due = due == null ? wanted : due.and(wanted);
        }

        synchronized Due due() {
            return due;
        }

        /** Done with what was due, unless something more became due since it was taken. */
        synchronized void done(Due taken) {
            if (due == taken) {
                due = null;
            }
        }
    }

    /**
     * The task once it ended, as the read model shows it; else, once {@code wait} passed, the task as it still stands
     * (working). The watch listens before {@code lookUp} (the task as it stands now) is asked, so an end in between is
     * not missed; the transports checked the caller's key through the decision stream before (an entry is made for a
     * key that may act, and another key's task is let go of once the look-up said "not found"). Cancelling the
     * returned Mono (the client went away) ends the wait.
     *
     * @throws JsonRpcError (as the error signal) -32603 when the task still works and this replica already waits on as
     *         many tasks as it may; whatever {@code lookUp} fails with
     */
    Mono<McpTask> awaitEnd(McpCaller caller, UUID taskId, Duration wait, Mono<McpTask> lookUp) {
        return Mono.defer(() -> {
            Sinks.One<McpTask> ended = Sinks.one();
            Watched entry = enter(caller, taskId, watched -> watched.waits.add(ended));
            return lookUp.flatMap(task -> {
                if (task.ended()) {
                    return Mono.just(task);
                }
                if (entry == null) {
                    return Mono.error(new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "This gateway already waits on as many"
                            + " tasks as it may; poll tasks/get until the task has ended, then ask for its result"));
                }
                if (entry.last == null) {
                    entry.last = task;
                }
                return ended.asMono().timeout(wait, Mono.fromSupplier(() -> Objects.requireNonNullElse(entry.last, task)));
            }).doFinally(signal -> {
                if (entry != null) {
                    entry.waits.remove(ended);
                    leaveIfIdle(entry);
                }
            });
        });
    }

    /**
     * Tells {@code session}'s client of each status change of the task until it ended or its lifetime is over, when
     * this replica has room for one more (notifications are optional: without room, none is sent).
     */
    void follow(McpCaller caller, McpClientSession session, McpTask task) {
        if (session == null || task.ended()) {
            return;
        }
        Watched entry = enter(caller, UUID.fromString(task.taskId()), watched -> {
            watched.follower = session;
            watched.followUntil = task.createdAt().plusMillis(task.ttlMs());
        });
        if (entry != null && entry.last == null) {
            entry.last = task;
        }
    }

    /** How many tasks this replica watches (for tests and metrics). */
    int size() {
        return watched.size();
    }

    /**
     * The task's entry with {@code attach} applied to it, atomically with its making (so that a read letting go of
     * idle entries cannot drop it in between); null when the replica or the key has no room. A new entry's workspace
     * is listened to before this returns.
     */
    private Watched enter(McpCaller caller, UUID taskId, Consumer<Watched> attach) {
        UUID workspaceId = caller.key().workspaceId();
        Key key = new Key(taskId, caller.key().keyHash());
        boolean room = watched.size() < properties.maxWatched()
                && watched.keySet().stream().filter(k -> k.keyHash().equals(key.keyHash())).count() < properties.maxWatchedPerKey();
        Watched[] entered = new Watched[1];
        boolean[] made = new boolean[1];
        watched.compute(key, (k, present) -> {
            if (present != null) {
                attach.accept(present);
                entered[0] = present;
                return present;
            }
            if (!room) {
                return null;
            }
            Watched fresh = new Watched(key, workspaceId);
            attach.accept(fresh);
            entered[0] = fresh;
            made[0] = true;
            return fresh;
        });
        if (made[0]) {
            listen(workspaceId);
        }
        return entered[0];
    }

    private void leaveIfIdle(Watched entry) {
        Instant now = Instant.now();
        boolean[] left = new boolean[1];
        watched.computeIfPresent(entry.key, (key, present) -> {
            if (present == entry && present.idle(now)) {
                left[0] = true;
                return null;
            }
            return present;
        });
        if (left[0]) {
            forgotten(entry);
        }
    }

    // ---- the events ----

    private void listen(UUID workspaceId) {
        if (properties.watch() != McpTaskProperties.Watch.EVENTS) {
            return;
        }
        synchronized (listening) {
            Listening present = listening.get(workspaceId);
            if (present != null) {
                present.entries++;
                return;
            }
            Listening made = new Listening(events.of(workspaceId).subscribe(signal -> heard(workspaceId, signal),
                    failure -> log.warn("MCP task watch: the events of workspace {} ended with {}", workspaceId, failure.toString())));
            made.entries = 1;
            listening.put(workspaceId, made);
        }
    }

    /** An entry is gone: its workspace is no longer listened to once it has none. */
    private void forgotten(Watched entry) {
        if (properties.watch() != McpTaskProperties.Watch.EVENTS) {
            return;
        }
        synchronized (listening) {
            Listening present = listening.get(entry.workspaceId);
            if (present != null && --present.entries == 0) {
                listening.remove(entry.workspaceId);
                present.subscription.dispose();
            }
        }
    }

    /** On the events reader's thread: marks what is due and hands the reading to this watch's thread. */
    private void heard(UUID workspaceId, LiveEvents.Signal signal) {
        if (signal instanceof LiveEvents.Event event) {
            String approvalId = approvalOf(event.envelope().event());
            if (approvalId == null) {
                return;
            }
            UUID taskId;
            try {
                taskId = UUID.fromString(approvalId);
            } catch (IllegalArgumentException notOurs) {
                return;
            }
            Due wanted = new Due(event.envelope().occurredAt(), null);
            boolean any = false;
            for (Watched entry : watched.values()) {
                if (entry.key.taskId().equals(taskId) && entry.workspaceId.equals(workspaceId)) {
                    entry.due(wanted);
                    any = true;
                }
            }
            if (any) {
                readSoon();
            }
            return;
        }
        // the reader started again at the end: whatever happened meanwhile shows in the read model within its wait
        Due settle = new Due(null, Instant.now().plus(properties.readModelWait()));
        watched.values().stream().filter(entry -> entry.workspaceId.equals(workspaceId)).forEach(entry -> entry.due(settle));
        readSoon();
    }

    /** The approval an event moves along, for the events that change what its task says; null for every other event. */
    static String approvalOf(DomainEvent event) {
        if (event instanceof ApprovalReviewed reviewed) {
            return reviewed.approvalId();
        }
        if (event instanceof ApprovedCallClaimed claimed) {
            return claimed.approvalId();
        }
        if (event instanceof ApprovedCallExecuted executed) {
            return executed.approvalId();
        }
        if (event instanceof ApprovedCallFailed failed) {
            return failed.approvalId();
        }
        if (event instanceof ApprovedCallCancelled cancelled) {
            return cancelled.approvalId();
        }
        if (event instanceof ApprovalExpired expired) {
            return expired.approvalId();
        }
        return event instanceof ApprovalWithdrawn withdrawn ? withdrawn.approvalId() : null;
    }

    // ---- reading ----

    private void readSoon() {
        if (readQueued.compareAndSet(false, true)) {
            try {
                reader.execute(this::readDue);
            } catch (RejectedExecutionException stopping) {
                readQueued.set(false);
            }
        }
    }

    private void poll() {
        watched.values().forEach(entry -> entry.due(Due.ONCE));
        readDue();
    }

    /**
     * One read of every due task's approval; changes handed on, ended tasks let go. A task the read model does not show
     * yet as it is due is read again later (backing off). Never throws.
     */
    private void readDue() {
        readQueued.set(false);
        List<Watched> due = new ArrayList<>();
        Map<Watched, Due> taken = new HashMap<>();
        for (Watched entry : watched.values()) {
            Due wanted = entry.due();
            if (wanted != null) {
                due.add(entry);
                taken.put(entry, wanted);
            }
        }
        if (due.isEmpty()) {
            lagging = 0;
            return;
        }
        boolean again = false;
        try {
            List<Owned> rows = records.approvals(due.stream().map(entry -> entry.key.taskId()).distinct().toList());
            Instant now = Instant.now();
            for (Watched entry : due) {
                Due wanted = taken.get(entry);
                Owned row = rows.stream().filter(owned -> owned.facts().approvalId().equals(entry.key.taskId().toString())
                        && owned.workspaceId().equals(entry.workspaceId.toString())
                        && owned.keyHash().equals(entry.key.keyHash())).findFirst().orElse(null);
                McpTask task = row == null ? null : McpTask.ofApproval(row.facts(), now, properties.retention());
                boolean shown = task != null && (task.ended() || wanted.shownBy() == null
                        || !updatedAt(row).isBefore(wanted.shownBy().truncatedTo(ChronoUnit.MICROS)));
                if (shown) {
                    handOn(entry, task);
                }
                boolean settled = wanted.readUntil() == null || (task != null && task.ended()) || now.isAfter(wanted.readUntil());
                if ((shown && settled) || polling()) {
                    entry.done(wanted);
                } else {
                    again = true;
                }
            }
        } catch (DataAccessException failure) {
            // the read model is away: the waits go on until it is back or their deadlines pass
            log.warn("MCP task watch: the read model cannot be read ({})", ReadModelFailures.describe(failure));
            again = true;
        } catch (RuntimeException failure) {
            log.warn("MCP task watch: reading the watched tasks failed with {}", failure.getClass().getName());
            again = true;
        }
        if (again && !polling()) {
            lagging++;
            long delay = lagging <= QUICK_RETRIES ? RETRY_MILLIS
                    : Math.min(LAST_RETRY_MILLIS, RETRY_MILLIS << Math.min(20, lagging - QUICK_RETRIES));
            try {
                reader.schedule(this::readSoon, delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // shutting down
            }
        } else {
            lagging = 0;
        }
    }

    /** Whether the watch reads every watch-interval (then nothing is read again in between). */
    private boolean polling() {
        return properties.watch() == McpTaskProperties.Watch.POLL;
    }

    private static Instant updatedAt(Owned row) {
        return row.facts().updatedAt() == null ? row.facts().createdAt() : row.facts().updatedAt();
    }

    /** A task as the read model shows it: its follower told of a change, its waits answered once it ended. */
    private void handOn(Watched entry, McpTask task) {
        McpTask before = entry.last;
        entry.last = task;
        if (changed(before, task)) {
            notifyFollower(entry, task);
        }
        if (task.ended()) {
            // atomically with attaching (enter): a wait attached now is answered here, one attached after makes a new
            // entry, which listens again and looks the task up itself
            boolean[] ended = new boolean[1];
            watched.computeIfPresent(entry.key, (key, present) -> {
                if (present != entry) {
                    return present;
                }
                present.waits.forEach(wait -> wait.tryEmitValue(task));
                ended[0] = true;
                return null;
            });
            if (ended[0]) {
                forgotten(entry);
            }
        }
    }

    private static boolean changed(McpTask before, McpTask now) {
        return before == null || before.state() != now.state()
                || !Objects.equals(before.statusMessage(), now.statusMessage());
    }

    private void notifyFollower(Watched entry, McpTask task) {
        McpClientSession session = entry.follower;
        if (session == null) {
            return;
        }
        ObjectNode note = IngressJson.RESPONSES.createObjectNode();
        note.put("jsonrpc", "2.0");
        note.put("method", "notifications/tasks/status");
        note.set("params", task.toJson(Tasks.UTILITY, properties.pollInterval()));
        try {
            session.deliver(note);
        } catch (RuntimeException closed) {
            entry.follower = null; // its stream is gone; the status stays readable with tasks/get
        }
    }

    /** Lets go of the entries nobody waits on or follows any more (a follower's session closed, its lifetime over). */
    private void sweep() {
        Instant now = Instant.now();
        for (Watched entry : new ArrayList<>(watched.values())) {
            if (entry.idle(now)) {
                leaveIfIdle(entry);
            }
        }
    }

    @Override
    public void destroy() {
        reader.shutdownNow();
        synchronized (listening) {
            listening.values().forEach(present -> present.subscription.dispose());
            listening.clear();
        }
        watched.values().forEach(entry -> entry.waits.forEach(wait -> wait.tryEmitEmpty()));
        watched.clear();
    }
}
