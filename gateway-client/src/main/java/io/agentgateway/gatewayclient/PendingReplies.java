package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.command.Reply;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import reactor.core.publisher.Sinks;

/**
 * The commands this instance is waiting on, by command id. An entry lives from just before the send
 * until its reply, its send failure, its timeout or the caller's cancellation, whichever comes first.
 */
final class PendingReplies {
    private final ConcurrentMap<String, Sinks.One<Reply>> waiting = new ConcurrentHashMap<>();

    Sinks.One<Reply> register(String commandId) {
        Sinks.One<Reply> sink = Sinks.one();
        waiting.put(commandId, sink);
        return sink;
    }

    /** Whether someone waits for this command: lets the listener skip other instances' replies unparsed. */
    boolean isWaiting(String commandId) {
        return waiting.containsKey(commandId);
    }

    void complete(String commandId, Reply reply) {
        Sinks.One<Reply> sink = waiting.remove(commandId);
        if (sink != null) {
            sink.tryEmitValue(reply);
        }
    }

    void fail(String commandId, Throwable error) {
        Sinks.One<Reply> sink = waiting.remove(commandId);
        if (sink != null) {
            sink.tryEmitError(error);
        }
    }

    void forget(String commandId) {
        waiting.remove(commandId);
    }

    int size() {
        return waiting.size();
    }
}
