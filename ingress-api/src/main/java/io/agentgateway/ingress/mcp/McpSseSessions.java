package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.auth.ApiKeyCredential;
import io.agentgateway.ingress.web.ApiException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The open HTTP+SSE sessions of this ingress, by id. A session lives exactly as long as its event
 * stream: it is removed when the stream ends (client gone, queue overflow, shutdown). Sessions are
 * local to the instance that holds the stream; a POST that reaches another instance finds no session.
 */
@Component
class McpSseSessions implements DisposableBean {
    static final String TOO_MANY = "Too many MCP event streams open; retry later";

    private final Map<UUID, McpSseSession> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final int maxSessions;
    private final int buffer;

    McpSseSessions(McpGateProperties properties) {
        this.maxSessions = properties.sseMaxSessions();
        this.buffer = properties.sseSessionBuffer();
    }

    /** @throws ApiException 503 when {@code gateway.mcp.sse-max-sessions} streams are open */
    McpSseSession open(ApiKeyCredential key, String agentId) {
        if (open.incrementAndGet() > maxSessions) {
            open.decrementAndGet();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, TOO_MANY);
        }
        McpSseSession session = new McpSseSession(UUID.randomUUID(), key, agentId, buffer);
        sessions.put(session.id(), session);
        return session;
    }

    Optional<McpSseSession> find(UUID id) {
        return Optional.ofNullable(sessions.get(id)).filter(McpSseSession::isOpen);
    }

    void remove(McpSseSession session) {
        session.close();
        if (sessions.remove(session.id(), session)) {
            open.decrementAndGet();
        }
    }

    int size() {
        return sessions.size();
    }

    @Override
    public void destroy() {
        sessions.values().forEach(McpSseSession::close);
    }
}
