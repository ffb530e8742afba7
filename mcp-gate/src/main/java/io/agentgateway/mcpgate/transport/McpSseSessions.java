package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.upstream.McpUpstreamClients;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.TooManyRequests;
import java.util.HashMap;
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
    static final String TOO_MANY_FOR_KEY = "Too many MCP event streams open for this API key; close one or retry later";
    static final String TOO_MANY_FOR_WORKSPACE = "Too many MCP event streams open for this workspace; close one or retry later";
    /** A stream slot frees up when a client goes away; there is no schedule to promise. */
    private static final long RETRY_AFTER_SECONDS = 5;

    private final Map<UUID, McpSseSession> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    /** Open streams per key hash and per workspace; an entry goes when its count is back to 0. */
    private final Map<String, Integer> openPerKey = new HashMap<>();
    private final Map<UUID, Integer> openPerWorkspace = new HashMap<>();
    private final int maxSessions;
    private final int maxPerKey;
    private final int maxPerWorkspace;
    private final int buffer;

    private final McpUpstreamClients upstreams;

    McpSseSessions(McpGateProperties properties, McpUpstreamClients upstreams) {
        this.upstreams = upstreams;
        this.maxSessions = properties.sseMaxSessions();
        this.maxPerKey = properties.sseMaxSessionsPerKey();
        this.maxPerWorkspace = properties.sseMaxSessionsPerWorkspace();
        this.buffer = properties.sseSessionBuffer();
    }

    /**
     * @throws TooManyRequests 429 when the key already holds {@code gateway.mcp.sse-max-sessions-per-key}
     *         streams or its workspace {@code sse-max-sessions-per-workspace} (one caller cannot take every slot)
     * @throws ApiException 503 when {@code gateway.mcp.sse-max-sessions} streams are open on this instance
     */
    McpSseSession open(ApiKeyCredential key, String agentId) {
        synchronized (openPerKey) {
            if (openPerKey.getOrDefault(key.keyHash(), 0) >= maxPerKey) {
                throw new TooManyRequests(TOO_MANY_FOR_KEY, RETRY_AFTER_SECONDS);
            }
            if (openPerWorkspace.getOrDefault(key.workspaceId(), 0) >= maxPerWorkspace) {
                throw new TooManyRequests(TOO_MANY_FOR_WORKSPACE, RETRY_AFTER_SECONDS);
            }
            if (open.incrementAndGet() > maxSessions) {
                open.decrementAndGet();
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, TOO_MANY);
            }
            openPerKey.merge(key.keyHash(), 1, Integer::sum);
            openPerWorkspace.merge(key.workspaceId(), 1, Integer::sum);
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
            upstreams.closeFor(session.client()); // its own upstream session ends with it
            synchronized (openPerKey) {
                open.decrementAndGet();
                openPerKey.computeIfPresent(session.keyHash(), (k, n) -> n > 1 ? n - 1 : null);
                openPerWorkspace.computeIfPresent(session.workspaceId(), (w, n) -> n > 1 ? n - 1 : null);
            }
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
