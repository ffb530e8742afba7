package io.agentgateway.ingress.mcp;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Streamable HTTP client sessions this replica has served, by their sealed {@code Mcp-Session-Id}. The
 * id carries the session's state ({@link McpSessionIds}), so any replica makes the session's entry here (and
 * its upstream session, {@link McpUpstreamClients}) when it first serves it: across replicas a client session
 * has one upstream session per replica that served it, each declaring the same client capabilities. An entry
 * not used for {@code gateway.mcp.client-session-idle-timeout} (and with nothing in progress) is dropped with
 * its upstream sessions; a later request makes them again (the upstream then sees a new session).
 * HTTP+SSE sessions have theirs in {@link McpSseSession}, closed with their stream.
 */
@Component
class McpClientSessions implements DisposableBean {
    private final Map<String, McpClientSession> sessions = new ConcurrentHashMap<>();
    private final McpUpstreamClients upstreams;
    private final long idleNanos;
    private final Disposable sweep;

    McpClientSessions(McpUpstreamClients upstreams, McpGateProperties properties) {
        this.upstreams = upstreams;
        Duration idle = properties.clientSessionIdleTimeout();
        this.idleNanos = idle.toNanos();
        Duration every = idle.dividedBy(4).compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : idle.dividedBy(4);
        this.sweep = Flux.interval(every, Schedulers.parallel()).subscribe(tick -> sweep());
    }

    /** The session of a sealed id this replica opened (see {@link McpSessionIds#open}). */
    McpClientSession of(String sessionId, ObjectNode capabilities) {
        McpClientSession session = sessions.computeIfAbsent(sessionId, id -> new McpClientSession(id, capabilities, null));
        session.touch();
        return session;
    }

    void sweep() {
        sessions.forEach((id, session) -> {
            if (!session.busy() && session.idleNanos() > idleNanos && sessions.remove(id, session)) {
                upstreams.closeFor(session);
            }
        });
    }

    int size() {
        return sessions.size();
    }

    @Override
    public void destroy() {
        sweep.dispose();
    }
}
