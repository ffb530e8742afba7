package io.agentgateway.mcpgate.task;

import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTaskRecords.Owned;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.ReadModelFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
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
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.node.ObjectNode;

/**
 * The held-call tasks this replica waits on or follows: a 2025-11-25 {@code tasks/result} that waits for its task to
 * end, and the tasks whose status changes a client with an open stream here is told of
 * ({@code notifications/tasks/status}). No thread waits for any of them: every {@code gateway.mcp.tasks.watch-interval}
 * one query reads the approvals of all of them from the read model (nothing when there are none), and each change is
 * handed on. An approval's end reaches the read model once the projector wrote it, on every replica alike, so any
 * replica's waits end as soon as any other's would.
 *
 * <p>Bounded: {@code max-watched} tasks per replica and {@code max-watched-per-key} per API key; a wait is ended at its
 * deadline, a followed task once it ended or its lifetime is over, or when its client session closed.
 */
@Component
class McpTaskWatch implements DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(McpTaskWatch.class);

    private final McpTaskRecords records;
    private final McpTaskProperties properties;
    private final Map<UUID, Watched> watched = new ConcurrentHashMap<>();
    private final AtomicBoolean reading = new AtomicBoolean();
    private final Disposable ticks;

    McpTaskWatch(McpTaskRecords records, McpTaskProperties properties) {
        this.records = records;
        this.properties = properties;
        long every = properties.watchInterval().toMillis();
        this.ticks = Schedulers.boundedElastic().schedulePeriodically(this::readOnce, every, every,
                TimeUnit.MILLISECONDS);
    }

    /** A task watched here: whose it is, what it last was, who waits for its end and which client follows it. */
    private static final class Watched {
        final UUID taskId;
        final String workspaceId;
        final String keyHash;
        final Set<Sinks.One<McpTask>> waits = new CopyOnWriteArraySet<>();
        volatile McpTask last;
        volatile McpClientSession follower;
        volatile Instant followUntil;

        Watched(UUID taskId, String workspaceId, String keyHash, McpTask last) {
            this.taskId = taskId;
            this.workspaceId = workspaceId;
            this.keyHash = keyHash;
            this.last = last;
        }

        boolean idle(Instant now) {
            McpClientSession session = follower;
            return waits.isEmpty() && (session == null || session.isClosed() || followUntil == null || now.isAfter(followUntil));
        }
    }

    /**
     * The task once it ended, as the read model shows it; empty when {@code wait} passed first (or the task was
     * forgotten). Cancelling the returned Mono (the client went away) ends the wait.
     *
     * @throws JsonRpcError (as the error signal) -32603 when this replica already waits on as many tasks as it may
     */
    Mono<McpTask> awaitEnd(McpCaller caller, McpTask working, Duration wait) {
        return Mono.defer(() -> {
            Sinks.One<McpTask> ended = Sinks.one();
            Watched entry = enter(caller, working, watched -> watched.waits.add(ended));
            if (entry == null) {
                return Mono.error(new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "This gateway already waits on as many tasks"
                        + " as it may; poll tasks/get until the task has ended, then ask for its result"));
            }
            return ended.asMono().timeout(wait, Mono.empty())
                    .doFinally(signal -> {
                        entry.waits.remove(ended);
                        leaveIfIdle(entry);
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
        enter(caller, task, watched -> {
            watched.follower = session;
            watched.followUntil = task.createdAt().plusMillis(task.ttlMs());
        });
    }

    /** How many tasks this replica watches (for tests and metrics). */
    int size() {
        return watched.size();
    }

    /**
     * The task's entry with {@code attach} applied to it, atomically with its making (so that a read sweeping idle
     * entries cannot drop it in between); null when the replica or the key has no room, or another key watches the id.
     */
    private Watched enter(McpCaller caller, McpTask task, Consumer<Watched> attach) {
        UUID id = UUID.fromString(task.taskId());
        String workspaceId = caller.key().workspaceId().toString();
        String keyHash = caller.key().keyHash();
        boolean room = watched.size() < properties.maxWatched()
                && watched.values().stream().filter(w -> w.keyHash.equals(keyHash)).count() < properties.maxWatchedPerKey();
        Watched[] entered = new Watched[1];
        watched.compute(id, (key, present) -> {
            if (present != null) {
                if (present.workspaceId.equals(workspaceId) && present.keyHash.equals(keyHash)) {
                    attach.accept(present);
                    entered[0] = present;
                }
                return present;
            }
            if (!room) {
                return null;
            }
            Watched made = new Watched(id, workspaceId, keyHash, task);
            attach.accept(made);
            entered[0] = made;
            return made;
        });
        return entered[0];
    }

    private void leaveIfIdle(Watched entry) {
        Instant now = Instant.now();
        watched.computeIfPresent(entry.taskId, (key, present) -> present == entry && present.idle(now) ? null : present);
    }

    /** One read of every watched task's approval; changes handed on, ended tasks let go. Never throws. */
    private void readOnce() {
        if (watched.isEmpty() || !reading.compareAndSet(false, true)) {
            return;
        }
        try {
            Instant now = Instant.now();
            for (UUID id : new ArrayList<>(watched.keySet())) {
                watched.computeIfPresent(id, (key, entry) -> entry.idle(now) ? null : entry);
            }
            List<UUID> ids = new ArrayList<>(watched.keySet());
            if (ids.isEmpty()) {
                return;
            }
            for (Owned owned : records.approvals(ids)) {
                Watched entry = watched.get(UUID.fromString(owned.facts().approvalId()));
                if (entry == null || !entry.workspaceId.equals(owned.workspaceId()) || !entry.keyHash.equals(owned.keyHash())) {
                    continue;
                }
                McpTask task = McpTask.ofApproval(owned.facts(), now, properties.retention());
                McpTask before = entry.last;
                entry.last = task;
                if (changed(before, task)) {
                    notifyFollower(entry, task);
                }
                if (task.ended()) {
                    // atomically with attaching (enter): a wait attached now is answered here, one attached after
                    // makes a new entry, answered by the next read
                    watched.computeIfPresent(entry.taskId, (key, present) -> {
                        if (present != entry) {
                            return present;
                        }
                        present.waits.forEach(wait -> wait.tryEmitValue(task));
                        return null;
                    });
                }
            }
        } catch (DataAccessException failure) {
            // the read model is away: the waits go on until it is back or their deadlines pass
            log.warn("MCP task watch: the read model cannot be read ({})", ReadModelFailures.describe(failure));
        } catch (RuntimeException failure) {
            log.warn("MCP task watch: reading the watched tasks failed with {}", failure.getClass().getName());
        } finally {
            reading.set(false);
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

    @Override
    public void destroy() {
        ticks.dispose();
        watched.values().forEach(entry -> entry.waits.forEach(wait -> wait.tryEmitEmpty()));
        watched.clear();
    }
}
