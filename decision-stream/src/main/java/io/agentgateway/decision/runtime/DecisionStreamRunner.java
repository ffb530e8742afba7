package io.agentgateway.decision.runtime;

import io.agentgateway.decision.DecisionSettings;
import io.agentgateway.decision.topology.DecisionTopology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the decision topology on Kafka Streams, without Spring: start, watch the state, wait for
 * RUNNING, close. Used by the Spring lifecycle bean and directly by tests. It can be started again
 * after {@link #close}: each start builds a fresh {@link KafkaStreams}.
 */
public final class DecisionStreamRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DecisionStreamRunner.class);
    private static final Set<State> STOPPED = EnumSet.of(State.PENDING_SHUTDOWN, State.NOT_RUNNING, State.PENDING_ERROR, State.ERROR);

    private final DecisionSettings settings;
    private final Properties streamsConfig;
    private final Object monitor = new Object();
    private KafkaStreams streams;
    private State state;

    public DecisionStreamRunner(DecisionSettings settings, Properties streamsConfig) {
        this.settings = settings;
        this.streamsConfig = streamsConfig;
    }

    /** The replication of the internal topics (changelogs) Streams creates; before {@link #start()}. */
    public void useReplication(short factor, int minInsyncReplicas) {
        synchronized (monitor) {
            DecisionStreamsConfig.useReplication(streamsConfig, factor, minInsyncReplicas);
        }
    }

    public void start() {
        KafkaStreams created;
        synchronized (monitor) {
            if (streams != null) {
                return;
            }
            created = new KafkaStreams(DecisionTopology.build(settings), streamsConfig);
            created.setStateListener((newState, oldState) -> stateChanged(created, newState));
            // the processor answers failing commands itself; what escapes is infrastructure (store, broker), and
            // a fresh thread re-reads from the last commit, which at-least-once plus dedupe makes safe
            created.setUncaughtExceptionHandler(e -> {
                log.error("decision stream thread failed; replacing it", e);
                return StreamThreadExceptionResponse.REPLACE_THREAD;
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

    private void stateChanged(KafkaStreams source, State newState) {
        log.info("decision stream state {}", newState);
        synchronized (monitor) {
            // a stream being closed still reports its last transitions; only the current one counts
            if (source == streams) {
                state = newState;
                monitor.notifyAll();
            }
        }
    }
}
