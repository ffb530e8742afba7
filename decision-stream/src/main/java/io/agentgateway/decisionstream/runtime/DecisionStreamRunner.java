package io.agentgateway.decisionstream.runtime;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisionstream.local.AckObservingClientSupplier;
import io.agentgateway.decisionstream.local.InProcessReplies;
import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.decisionstream.topology.DecisionTopology;
import io.agentgateway.decisionstream.topology.ReplyRoute;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import io.agentgateway.decisionstream.topology.ReplyRoute;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the decision topology on Kafka Streams, without Spring: start, watch the state, wait for
 * RUNNING, close. Used by the Spring lifecycle bean and directly by tests. It can be started again
 * after {@link #close}: each start builds a fresh {@link KafkaStreams}.
 *
 * <p>What escapes the processor is never a command's fault (the processor answers those itself) but the
 * infrastructure's: a store, a changelog write. The local stores may then hold a change their changelogs
 * never got. Under exactly-once Kafka Streams wipes a task that failed and restores it from its changelogs;
 * under at-least-once it would keep the local stores as they are, so this runner does it: it shuts the
 * client down, deletes its local state ({@link KafkaStreams#cleanUp()}) and starts again, restoring every
 * store from its changelog and deciding again the commands after the last commit (those the processed
 * commands remember are re-emitted as they were). Rebuilds that follow each other within a minute wait
 * longer each time, up to {@link #MAX_REBUILD_DELAY}.
 */
public final class DecisionStreamRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DecisionStreamRunner.class);
    private static final Set<State> STOPPED = EnumSet.of(State.PENDING_SHUTDOWN, State.NOT_RUNNING, State.PENDING_ERROR, State.ERROR);
    static final Duration FIRST_REBUILD_DELAY = Duration.ofSeconds(1);
    static final Duration MAX_REBUILD_DELAY = Duration.ofSeconds(30);

    private final DecisionSettings settings;
    private final Properties streamsConfig;
    private final Object monitor = new Object();
    private final boolean exactlyOnce;
    /** Null: every reply through the replies topic. */
    private final LocalReplyChannel localReplies;
    private final EvidenceSettings evidence;
    private KafkaStreams streams;
    private State state;
    /** The client that failed and is to be rebuilt from the changelogs once it is down. */
    private KafkaStreams failed;
    private long lastRebuildNanos;
    private Duration rebuildDelay = FIRST_REBUILD_DELAY;
    private int rebuilds;
    private StateRestoreListener restoreListener;
    private GatewayTracing tracing = GatewayTracing.disabled();
    /** Exactly-once only: aborts what an instance the group dropped left open; null otherwise, or until started. */
    private DepartedInstanceFencing fencing;

    public DecisionStreamRunner(DecisionSettings settings, Properties streamsConfig) {
        this(settings, streamsConfig, null);
    }

    /**
     * @param localReplies the channel to an ingress in this process, whose callers then get their replies
     *        in process once what the decision wrote is durable ({@link InProcessReplies}); null: none
     */
    public DecisionStreamRunner(DecisionSettings settings, Properties streamsConfig, LocalReplyChannel localReplies) {
        this(settings, streamsConfig, localReplies, EvidenceSettings.disabled());
    }

    /** @param evidence how each workspace's Merkle log is sealed ({@code gateway.evidence.*}) */
    public DecisionStreamRunner(DecisionSettings settings, Properties streamsConfig, LocalReplyChannel localReplies,
                                EvidenceSettings evidence) {
        this.settings = settings;
        this.streamsConfig = streamsConfig;
        this.localReplies = localReplies;
        this.evidence = evidence;
        this.exactlyOnce = !StreamsConfig.AT_LEAST_ONCE.equals(
                String.valueOf(streamsConfig.getOrDefault(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE)));
    }

    /** Told about every store restored from its changelog (a benchmark's restore figures); set before {@link #start}. */
    public void restoreListener(StateRestoreListener listener) {
        synchronized (monitor) {
            restoreListener = listener;
        }
    }

    /** Where the spans of the decisions go (off unless set); before {@link #start}. */
    public void tracing(GatewayTracing tracing) {
        synchronized (monitor) {
            this.tracing = tracing;
        }
    }

    /**
     * The replication of the internal topics (changelogs) Streams creates, and the commit interval chosen for it;
     * before {@link #start()}.
     */
    public void useReplication(short factor, int minInsyncReplicas, long commitIntervalMs) {
        synchronized (monitor) {
            DecisionStreamsConfig.useReplication(streamsConfig, factor, minInsyncReplicas, commitIntervalMs);
        }
    }

    public void start() {
        KafkaStreams created;
        synchronized (monitor) {
            if (streams != null) {
                return;
            }
            if (localReplies == null) {
                created = new KafkaStreams(DecisionTopology.build(settings, ReplyRoute.KAFKA, tracing, evidence), streamsConfig);
            } else {
                // one supplier per client: its trackers belong to this client's producers
                AckObservingClientSupplier clients = new AckObservingClientSupplier();
                created = new KafkaStreams(DecisionTopology.build(settings, new InProcessReplies(localReplies, clients), tracing,
                        evidence), streamsConfig, clients);
            }
            if (exactlyOnce && fencing == null) {
                fencing = new DepartedInstanceFencing(streamsConfig);
            }
            created.setStateListener((newState, oldState) -> stateChanged(created, newState));
            if (restoreListener != null) {
                created.setGlobalStateRestoreListener(restoreListener);
            }
            // the processor answers failing commands itself; what escapes is infrastructure (store, broker)
            created.setUncaughtExceptionHandler(e -> {
                if (exactlyOnce) {
                    // a failed task is wiped and restored from its changelogs; a fresh thread re-reads from the last commit
                    log.error("decision stream thread failed; replacing it", e);
                    return StreamThreadExceptionResponse.REPLACE_THREAD;
                }
                log.error("decision stream thread failed; rebuilding the local stores from their changelogs", e);
                synchronized (monitor) {
                    failed = created;
                }
                // closing (and leaving the group) before answering: no replacement thread may process a record on
                // the local stores, and the partitions go to the rebuilt client at once, not after the session
                // timeout. Called on a stream thread, close only starts the shutdown.
                created.close(CloseOptions.timeout(Duration.ZERO)
                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            streams = created;
            state = created.state();
        }
        created.start();
    }

    /** The Kafka Streams state; null before the first start, NOT_RUNNING after close. */
    public State state() {
        synchronized (monitor) {
            return state;
        }
    }

    /** True when the stream is RUNNING: assigned its partitions and processing. */
    public boolean isRunning() {
        return state() == State.RUNNING;
    }

    /**
     * The tasks this instance decides for now (active tasks, not standby copies): 0 while it is not running, and while
     * it holds only copies, as an instance that came back does until its copies have caught up and a rebalance hands
     * its tasks back ({@code acceptable.recovery.lag}, docs/operating-a-cluster.md).
     */
    public int activeTaskCount() {
        KafkaStreams running;
        synchronized (monitor) {
            running = streams;
        }
        if (running == null) {
            return 0;
        }
        try {
            return running.metadataForLocalThreads().stream().mapToInt(thread -> thread.activeTasks().size()).sum();
        } catch (IllegalStateException notRunning) {
            return 0;
        }
    }

    /**
     * Deciding for at least one partition: RUNNING, or REBALANCING while it keeps its tasks (a cooperative rebalance
     * moves only the tasks that change owner), with an active task. What an operator waits for before restarting the
     * next instance.
     */
    public boolean isDeciding() {
        State now = state();
        return (now == State.RUNNING || now == State.REBALANCING) && activeTaskCount() > 0;
    }

    /**
     * Waits until the stream is RUNNING.
     *
     * @throws StreamsNotRunningException when it is not running within {@code timeout}, was never
     *         started, or stopped while waiting
     */
    public void awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (state != State.RUNNING) {
                if (state == null || STOPPED.contains(state)) {
                    throw new StreamsNotRunningException("decision stream is not running (state " + state + ")");
                }
                long remainingMs = (deadline - System.nanoTime()) / 1_000_000;
                if (remainingMs <= 0) {
                    throw new StreamsNotRunningException("decision stream not RUNNING after " + timeout + " (state " + state + ")");
                }
                try {
                    monitor.wait(remainingMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StreamsNotRunningException("interrupted while waiting for the decision stream");
                }
            }
        }
    }

    /** Stops the stream, waiting up to {@code timeout} for its threads; true when they all stopped in time. */
    public boolean close(Duration timeout) {
        KafkaStreams closing;
        synchronized (monitor) {
            closing = streams;
            streams = null;
            if (fencing != null) {
                fencing.close();
                fencing = null;
            }
            if (closing != null) {
                state = State.PENDING_SHUTDOWN;
                monitor.notifyAll();
            }
        }
        if (closing == null) {
            return true;
        }
        // leave the group: a replacement (a redeploy, a restart) takes the partitions over at once
        // instead of waiting out the session timeout with every decision of those partitions on hold
        boolean closed = closing.close(CloseOptions.timeout(timeout)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        if (!closed) {
            log.warn("decision stream did not stop within {}", timeout);
        }
        synchronized (monitor) {
            if (streams == null) {
                state = State.NOT_RUNNING;
                monitor.notifyAll();
            }
        }
        return closed;
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /**
     * A read-only view of one of the running stream's stores (Kafka Streams' interactive queries), for tools
     * and tests that look at the state as it is; the local tasks' part of it only.
     */
    public <T> T queryableStore(String storeName, QueryableStoreType<T> type) {
        KafkaStreams running;
        synchronized (monitor) {
            running = streams;
        }
        if (running == null) {
            throw new StreamsNotRunningException("decision stream is not running");
        }
        return running.store(StoreQueryParameters.fromNameAndType(storeName, type));
    }

    /** How many times the local stores were rebuilt from their changelogs after a failure. */
    public int rebuilds() {
        synchronized (monitor) {
            return rebuilds;
        }
    }

    private void stateChanged(KafkaStreams source, State newState) {
        log.info("decision stream state {}", newState);
        boolean rebuild;
        synchronized (monitor) {
            // a stream being closed still reports its last transitions; only the current one counts
            if (source == streams) {
                state = newState;
                monitor.notifyAll();
                if (newState == State.RUNNING && fencing != null) {
                    fencing.groupSettled();
                }
            }
            rebuild = (newState == State.ERROR || newState == State.NOT_RUNNING) && source == failed && source == streams;
        }
        if (rebuild) {
            Thread rebuilder = new Thread(() -> rebuild(source), "decision-stream-rebuild");
            rebuilder.setDaemon(true);
            rebuilder.start();
        }
    }

    /** Closes the failed client, deletes its local state and starts a new one, unless {@link #close} came first. */
    private void rebuild(KafkaStreams source) {
        Duration delay;
        synchronized (monitor) {
            long now = System.nanoTime();
            boolean recently = rebuilds > 0 && now - lastRebuildNanos < Duration.ofMinutes(1).toNanos();
            rebuildDelay = recently ? min(rebuildDelay.multipliedBy(2), MAX_REBUILD_DELAY) : FIRST_REBUILD_DELAY;
            delay = rebuildDelay;
        }
        source.close(CloseOptions.timeout(Duration.ofSeconds(30)));
        source.cleanUp();
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        synchronized (monitor) {
            if (streams != source) {
                return; // closed (or restarted) meanwhile
            }
            streams = null;
            failed = null;
            rebuilds++;
            lastRebuildNanos = System.nanoTime();
        }
        start();
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
