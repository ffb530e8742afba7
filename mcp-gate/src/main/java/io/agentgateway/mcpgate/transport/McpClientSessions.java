package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.upstream.McpUpstreamClients;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Streamable HTTP client sessions this replica has served, by workspace and their sealed
 * {@code Mcp-Session-Id}. The id carries the session's state ({@link McpSessionIds}), so any replica makes the
 * session's entry here (and its upstream session, {@link McpUpstreamClients}) when it first serves it: across
 * replicas a client session has one upstream session per replica that served it, each declaring the same client
 * capabilities. An entry not used for {@code gateway.mcp.client-session-idle-timeout} (and with nothing in
 * progress) is dropped with its upstream sessions; a later request makes them again (the upstream then sees a new
 * session). A workspace holds at most {@code gateway.mcp.max-client-sessions-per-workspace} here: a key holder who
 * opens sessions without end makes the workspace's least recently used idle ones close early, not this replica
 * hold an upstream session for each. HTTP+SSE sessions have theirs in {@link McpSseSession}, closed with their
 * stream.
 */
@Component
class McpClientSessions implements DisposableBean {
    private final Map<UUID, Map<String, McpClientSession>> byWorkspace = new ConcurrentHashMap<>();
    private final Consumer<McpClientSession> close;
    private final long idleNanos;
    private final int perWorkspace;
    private final Disposable sweep;

    @Autowired
    McpClientSessions(McpUpstreamClients upstreams, McpGateProperties properties) {
        this(upstreams::closeFor, properties);
    }

    /** @param close closes a dropped session's upstream sessions */
    McpClientSessions(Consumer<McpClientSession> close, McpGateProperties properties) {
        this.close = close;
        Duration idle = properties.clientSessionIdleTimeout();
        this.idleNanos = idle.toNanos();
        this.perWorkspace = properties.maxClientSessionsPerWorkspace();
        Duration every = idle.dividedBy(4).compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : idle.dividedBy(4);
        this.sweep = Flux.interval(every, Schedulers.parallel()).subscribe(tick -> sweep());
    }

    /** The session of a sealed id this replica opened (see {@link McpSessionIds#open}) for a key of {@code workspaceId}. */
    McpClientSession of(UUID workspaceId, String sessionId, ObjectNode capabilities) {
        Map<String, McpClientSession> sessions = byWorkspace.computeIfAbsent(workspaceId, id -> new ConcurrentHashMap<>());
        McpClientSession session = sessions.get(sessionId);
        if (session == null) {
            if (sessions.size() >= perWorkspace) {
                evictLeastRecentlyUsed(sessions);
            }
            session = sessions.computeIfAbsent(sessionId, id -> new McpClientSession(id, capabilities, null));
        }
        session.touch();
        return session;
    }

    /** The workspace's idle session used longest ago makes room (a busy one is never closed under a request). */
    private void evictLeastRecentlyUsed(Map<String, McpClientSession> sessions) {
        sessions.entrySet().stream()
                .filter(entry -> !entry.getValue().busy())
                .max(Comparator.comparingLong(entry -> entry.getValue().idleNanos()))
                .ifPresent(oldest -> {
                    if (sessions.remove(oldest.getKey(), oldest.getValue())) {
                        close.accept(oldest.getValue());
                    }
                });
    }

    void sweep() {
        byWorkspace.forEach((workspace, sessions) -> sessions.forEach((id, session) -> {
            if (!session.busy() && session.idleNanos() > idleNanos && sessions.remove(id, session)) {
                close.accept(session);
            }
        }));
    }

    int size() {
        return byWorkspace.values().stream().mapToInt(Map::size).sum();
    }

    @Override
    public void destroy() {
        sweep.dispose();
    }
}
