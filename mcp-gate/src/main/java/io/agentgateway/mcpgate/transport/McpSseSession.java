package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;

/**
 * One client of the HTTP+SSE transport: the API key that opened its event stream (every POST to the
 * session must carry the same key) and the answers waiting to be written to that stream. The queue is
 * bounded: a client that posts but does not read its stream loses the session rather than the
 * gateway's memory.
 */
final class McpSseSession {
    private final UUID id;
    private final ApiKeyCredential key;
    private final String agentId;
    private final Sinks.Many<JsonNode> answers;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The client session: its upstream session and what that initiates, which goes to this stream. */
    private final McpClientSession client;
    /** When the client last posted or was last sent an answer (nanoTime): an idle session is closed. */
    private volatile long lastActivity = System.nanoTime();

    McpSseSession(UUID id, ApiKeyCredential key, String agentId, int buffer) {
        this.id = id;
        this.key = key;
        this.agentId = agentId;
        this.answers = Sinks.many().unicast().onBackpressureBuffer(new ArrayBlockingQueue<>(buffer));
        this.client = new McpClientSession("sse:" + id, null, this::offer);
    }

    McpClientSession client() {
        return client;
    }

    UUID id() {
        return id;
    }

    String keyHash() {
        return key.keyHash();
    }

    UUID workspaceId() {
        return key.workspaceId();
    }

    /** The client posted something, or an answer was queued for it. */
    void touch() {
        lastActivity = System.nanoTime();
    }

    /** How long neither side has done anything on this session. */
    Duration idleFor() {
        return Duration.ofNanos(System.nanoTime() - lastActivity);
    }

    /** Whether a request carrying this key may use the session (the key that opened it, nothing else). */
    boolean belongsTo(ApiKeyCredential other) {
        return key.equals(other);
    }

    /** The agent id of the GET, for POSTs that do not send their own. */
    String agentId() {
        return agentId;
    }

    boolean isOpen() {
        return !closed.get();
    }

    /** The answers for the event stream (subscribed once, by the GET that opened the session). */
    Flux<JsonNode> answers() {
        return answers.asFlux();
    }

    /**
     * Queues one answer for the stream; a full queue (the client does not read) closes the session.
     *
     * @return whether it was queued
     */
    boolean offer(JsonNode answer) {
        if (closed.get()) {
            return false;
        }
        touch();
        Sinks.EmitResult result;
        synchronized (answers) { // a unicast sink takes one emitter at a time; answers finish on many threads
            result = answers.tryEmitNext(answer);
        }
        if (result.isFailure()) {
            close();
            return false;
        }
        return true;
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            synchronized (answers) {
                answers.tryEmitComplete();
            }
        }
    }
}
