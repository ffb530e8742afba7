package io.agentgateway.mcpgate.session;

import io.agentgateway.httpedge.web.IngressJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MCP client session as this ingress replica sees it: what the upstream may ask of the client (the
 * client capabilities it declared at {@code initialize}: elicitation, sampling, roots), where messages the
 * upstream initiates go, and the client's requests in flight (so that its {@code notifications/cancelled}
 * reaches them). The gate gives each client session an upstream session of its own, declaring exactly
 * these capabilities ({@code McpUpstreamClients}), so that whatever the upstream initiates belongs to
 * this client and nobody else.
 *
 * <p>Where messages go: an HTTP+SSE session has one event stream; a Streamable HTTP session (its state
 * sealed in the {@code Mcp-Session-Id}, {@code McpSessionIds}) has the event streams of its requests in
 * progress on this replica (the newest takes them; a client has no other stream the gate serves).
 */
public final class McpClientSession {
    /** The capabilities the gate relays for a client (the rest of what a client declares concerns the gate only). */
    static final List<String> RELAYED_CAPABILITIES = List.of("elicitation", "sampling", "roots");
    private static final long NEVER = Long.MIN_VALUE;

    private final String id;
    private volatile ObjectNode capabilities;
    /** The protocol version its initialize negotiated (sealed in a Streamable HTTP session's id); null before. */
    private volatile String protocolVersion;
    /** Its stream ended or it idled out here: nothing more reaches its client through this object. */
    private volatile boolean closed;
    private final Consumer<JsonNode> eventStream;
    private final Deque<Consumer<JsonNode>> requestStreams = new ConcurrentLinkedDeque<>();
    private final Map<String, Runnable> inFlight = new ConcurrentHashMap<>();
    private volatile long lastUsed = System.nanoTime();
    /** What its upstream session declared it may send unasked; null until that session initialized. */
    private volatile Boolean upstreamMayInitiate;
    /** Requests its upstream sent that wait here for this client's answer ({@code McpServerRequests}). */
    private final AtomicInteger openServerRequests = new AtomicInteger();
    /** When a refusal over that bound was last logged (nanoTime); {@link #NEVER} before the first. */
    private final AtomicLong serverRequestsRefusalLogged = new AtomicLong(NEVER);

    /**
     * @param eventStream the HTTP+SSE session's stream; null for a Streamable HTTP session (its requests' streams)
     */
    public McpClientSession(String id, ObjectNode capabilities, Consumer<JsonNode> eventStream) {
        this.id = id;
        this.capabilities = capabilities == null ? IngressJson.RESPONSES.createObjectNode() : capabilities;
        this.eventStream = eventStream;
    }

    /** The relayed part of what a client declared in its initialize params. */
    public static ObjectNode relayedCapabilities(JsonNode declared) {
        ObjectNode relayed = IngressJson.RESPONSES.createObjectNode();
        if (declared != null && declared.isObject()) {
            for (String name : RELAYED_CAPABILITIES) {
                JsonNode capability = declared.get(name);
                if (capability != null && capability.isObject()) {
                    relayed.set(name, capability.deepCopy());
                }
            }
        }
        return relayed;
    }

    public String id() {
        return id;
    }

    public ObjectNode capabilities() {
        return capabilities;
    }

    String protocolVersion() {
        return protocolVersion;
    }

    /** Its HTTP+SSE stream ended, or it was dropped here (idle, or to make room). */
    public void closed() {
        this.closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    /** The version its initialize negotiated (an HTTP+SSE client's initialize, or a sealed session id's state). */
    public void negotiated(String version) {
        if (version != null && !version.isBlank()) {
            this.protocolVersion = version;
        }
    }

    /** An HTTP+SSE client initializes after its session opened; its declaration is taken then. */
    public void declare(ObjectNode relayed) {
        this.capabilities = relayed;
    }

    /** Its upstream session initialized: whether that upstream declared anything it may send unasked. */
    public void upstreamMayInitiate(boolean may) {
        this.upstreamMayInitiate = may;
    }

    /**
     * Whether anything the upstream initiates can reach this client: it declared something the upstream may ask of
     * it, or its upstream declared notifications of its own (or has not initialized yet). When not, a request's
     * answer needs no stream open for the upstream's messages, and is written as one event.
     */
    public boolean mayReceiveUnasked() {
        return !capabilities.isEmpty() || !Boolean.FALSE.equals(upstreamMayInitiate);
    }

    /**
     * Whether an upstream with these capabilities may send a client anything it did not ask for: logging, a
     * list_changed of tools, resources or prompts, a resource update. (Progress answers a request's own token;
     * requests to the client depend on what the client declared.)
     */
    public static boolean mayInitiate(McpSchema.ServerCapabilities server) {
        if (server == null) {
            return true; // nothing declared that can be trusted: keep the stream
        }
        return server.logging() != null
                || (server.tools() != null && Boolean.TRUE.equals(server.tools().listChanged()))
                || (server.prompts() != null && Boolean.TRUE.equals(server.prompts().listChanged()))
                || (server.resources() != null && (Boolean.TRUE.equals(server.resources().listChanged())
                        || Boolean.TRUE.equals(server.resources().subscribe())));
    }

    public void touch() {
        lastUsed = System.nanoTime();
    }

    public long idleNanos() {
        return System.nanoTime() - lastUsed;
    }

    public boolean busy() {
        return !inFlight.isEmpty() || !requestStreams.isEmpty();
    }

    /**
     * Hands a message the upstream initiated to the client.
     *
     * @return whether an open stream took it
     */
    public boolean deliver(JsonNode message) {
        if (eventStream != null) {
            eventStream.accept(message);
            return true;
        }
        Consumer<JsonNode> newest = requestStreams.peekLast();
        if (newest == null) {
            return false;
        }
        newest.accept(message);
        return true;
    }

    /**
     * Takes a place for a request its upstream sends to this client.
     *
     * @return false (and nothing taken) when {@code max} are open already
     */
    public boolean openServerRequest(int max) {
        if (openServerRequests.incrementAndGet() > max) {
            openServerRequests.decrementAndGet();
            return false;
        }
        return true;
    }

    /** A request its upstream sent this client was answered, cancelled or forgotten: its place is free. */
    public void serverRequestClosed() {
        openServerRequests.decrementAndGet();
    }

    /**
     * Whether a refusal over the bound of open server requests should be logged now: once, then again only when
     * {@code interval} has passed since (so that an upstream flooding the client cannot flood the log).
     */
    public boolean logServerRequestRefusal(Duration interval) {
        long now = System.nanoTime();
        long last = serverRequestsRefusalLogged.get();
        return (last == NEVER || now - last >= interval.toNanos()) && serverRequestsRefusalLogged.compareAndSet(last, now);
    }

    /** A request's event stream is open (Streamable HTTP); run the returned action when it ends. */
    public Runnable openStream(Consumer<JsonNode> stream) {
        requestStreams.addLast(stream);
        return () -> requestStreams.removeLastOccurrence(stream);
    }

    /** A client request in flight, by the text of its JSON-RPC id; the returned action forgets it. */
    public Runnable inFlight(JsonNode rpcId, Runnable cancel) {
        String key = rpcId.toString();
        inFlight.put(key, cancel);
        return () -> inFlight.remove(key, cancel);
    }

    /** The client cancelled one of its requests ({@code notifications/cancelled}); false when none is in flight here. */
    public boolean cancel(JsonNode rpcId) {
        Runnable cancel = rpcId == null ? null : inFlight.remove(rpcId.toString());
        if (cancel == null) {
            return false;
        }
        cancel.run();
        return true;
    }
}
