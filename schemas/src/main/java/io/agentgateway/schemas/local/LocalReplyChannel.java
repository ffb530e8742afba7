package io.agentgateway.schemas.local;

import io.agentgateway.schemas.command.Reply;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a decision stream hands a reply straight to an ingress of the same JVM (the embedded default runs
 * both as Spring contexts in one process; the launcher registers one channel in both). An ingress attaches a
 * {@link Receiver} for its reply partition; the stream asks, per reply, whether the receiver of the reply's
 * partition waits for that command id, and if so delivers it once everything the decision wrote is durable
 * instead of writing the reply record for a second consumer to fetch back. It lives with the wire contract, not
 * with either side, so that the ingress and the decision stream meet here without depending on each other.
 *
 * <p>Absent (separate processes, or {@code gateway.local-reply.enabled=false}), nothing changes: replies go
 * through {@code gateway.replies.v1}.
 */
public final class LocalReplyChannel {
    /** An ingress waiting for replies on one reply partition. */
    public interface Receiver {
        /** Whether a caller of this ingress still waits for the command (cheap: called on the stream thread). */
        boolean isWaiting(String commandId);

        /** Hands the reply over; called on the producer's I/O thread once the decision is durable, so it must not block. */
        void deliver(Reply reply);
    }

    private final ConcurrentMap<Integer, Receiver> receivers = new ConcurrentHashMap<>();
    private final AtomicLong delivered = new AtomicLong();

    public void attach(int replyPartition, Receiver receiver) {
        if (receivers.putIfAbsent(replyPartition, receiver) != null) {
            throw new IllegalStateException("reply partition " + replyPartition + " already has an ingress in this process");
        }
    }

    public void detach(int replyPartition, Receiver receiver) {
        receivers.remove(replyPartition, receiver);
    }

    /** The receiver that waits for this reply in this process, or null (the reply then goes through Kafka). */
    public Receiver waitingFor(Reply reply) {
        if (reply == null || reply.commandId() == null) {
            return null;
        }
        Receiver receiver = receivers.get(reply.replyPartition());
        return receiver != null && receiver.isWaiting(reply.commandId()) ? receiver : null;
    }

    /** Hands {@code reply} to the receiver {@link #waitingFor} found, once the stream knows it is durable. */
    public void deliver(Receiver receiver, Reply reply) {
        delivered.incrementAndGet();
        receiver.deliver(reply);
    }

    /** Replies handed over in process so far (tests, diagnostics). */
    public long deliveredCount() {
        return delivered.get();
    }
}
