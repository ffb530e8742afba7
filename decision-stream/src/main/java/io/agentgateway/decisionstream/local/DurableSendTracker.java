package io.agentgateway.decisionstream.local;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watermark over one producer's sends: runs an action once every record handed to the producer before the
 * action was registered is durable. Under at-least-once "durable" is the broker's acknowledgement of each send
 * (the Streams producer uses {@code acks=all}: in every in-sync replica); sends complete out of order across
 * partitions, so the watermark is the highest sequence below which every send is acknowledged. A send that
 * fails is never acknowledged: the watermark stays below it for good, its waiters and every later one never
 * run (their callers get their 504), and Streams fails the task on that error and rebuilds with a new
 * producer (and tracker). Under exactly-once a record counts once its transaction committed: waiters run
 * after {@code commitTransaction} returned, and an abort drops them (the reprocessed commands register again).
 *
 * <p>Sends and registrations come from the one stream thread that owns the producer; acknowledgements from the
 * producer's I/O thread. Actions run on the thread that made them due, outside the lock.
 */
public final class DurableSendTracker {
    private static final Logger log = LoggerFactory.getLogger(DurableSendTracker.class);

    private final boolean transactional;
    private final Object lock = new Object();
    /** Sequence of the last send handed to the producer. */
    private long sent;
    /** Every send up to this sequence is durable. */
    private long durable;
    /** At-least-once: the sends not yet known durable, in sequence order. */
    private final ArrayDeque<Send> unacknowledged = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private boolean closed;

    public DurableSendTracker(boolean transactional) {
        this.transactional = transactional;
    }

    /** Numbers a send about to be handed to the producer; returns the callback to give the producer instead. */
    Callback onSend(Callback inner) {
        synchronized (lock) {
            long sequence = ++sent;
            if (transactional) {
                return inner;
            }
            Send send = new Send(sequence, inner);
            unacknowledged.addLast(send);
            return send;
        }
    }

    /**
     * Runs {@code action} once every send handed to the producer so far is durable: at once when they are (on
     * this thread), else later on the thread that acknowledges or commits the last of them. Never, if one fails.
     */
    public void afterSendsSoFar(Runnable action) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            // under exactly-once nothing is durable before the commit that follows, not even "no record"
            if (transactional || durable < sent) {
                waiters.addLast(new Waiter(sent, action));
                return;
            }
        }
        run(action);
    }

    /** Exactly-once: the sequence the coming commit covers (called just before it, on the stream thread). */
    long beforeCommit() {
        synchronized (lock) {
            return sent;
        }
    }

    /** Exactly-once: the commit of everything up to {@code mark} succeeded. */
    void committed(long mark) {
        List<Runnable> due;
        synchronized (lock) {
            durable = Math.max(durable, mark);
            due = dueWaiters();
        }
        due.forEach(DurableSendTracker::run);
    }

    /** Exactly-once: the open transaction was aborted; what waited for it is reprocessed and registers again. */
    void aborted() {
        synchronized (lock) {
            waiters.clear();
        }
    }

    /** The producer is closed: whatever still waits will never be durable through it. */
    void close() {
        synchronized (lock) {
            closed = true;
            waiters.clear();
            unacknowledged.clear();
        }
    }

    /** At-least-once: whether an action waits for sends not yet acknowledged (a caller waits for the producer). */
    boolean awaited() {
        synchronized (lock) {
            return !transactional && !closed && !waiters.isEmpty();
        }
    }

    /** Waiters not yet run (tests, diagnostics). */
    public int waiting() {
        synchronized (lock) {
            return waiters.size();
        }
    }

    private void acknowledged(Send send) {
        List<Runnable> due;
        synchronized (lock) {
            send.acknowledged = true;
            while (!unacknowledged.isEmpty() && unacknowledged.peekFirst().acknowledged) {
                durable = unacknowledged.pollFirst().sequence;
            }
            due = dueWaiters();
        }
        due.forEach(DurableSendTracker::run);
    }

    private List<Runnable> dueWaiters() {
        if (waiters.isEmpty() || waiters.peekFirst().sequence > durable) {
            return List.of();
        }
        List<Runnable> due = new ArrayList<>();
        while (!waiters.isEmpty() && waiters.peekFirst().sequence <= durable) {
            due.add(waiters.pollFirst().action);
        }
        return due;
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // on the producer's I/O thread an exception would be swallowed with the other callbacks' work
            log.warn("a local reply failed to be handed over: {}", e.toString());
        }
    }

    private record Waiter(long sequence, Runnable action) {}

    private final class Send implements Callback {
        private final long sequence;
        private final Callback inner;
        private boolean acknowledged;

        Send(long sequence, Callback inner) {
            this.sequence = sequence;
            this.inner = inner;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (inner != null) {
                inner.onCompletion(metadata, exception);
            }
            if (exception == null) {
                acknowledged(this);
            }
        }
    }
}
