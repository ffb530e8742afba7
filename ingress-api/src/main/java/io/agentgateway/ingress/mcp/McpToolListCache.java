package io.agentgateway.ingress.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} of a workspace's upstream, kept for {@code gateway.mcp.tools-list-ttl} (spec 4.3
 * rule 1). An entry is keyed by the connection's version, so a changed {@code mcp} connection is
 * never answered from the old server's list. Failures are not cached.
 */
@Component
class McpToolListCache {
    private final McpUpstreamCalls calls;
    private final Duration ttl;
    private final Clock clock;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();

    @Autowired
    McpToolListCache(McpUpstreamCalls calls, McpGateProperties properties) {
        this(calls, properties, Clock.systemUTC());
    }

    McpToolListCache(McpUpstreamCalls calls, McpGateProperties properties, Clock clock) {
        this.calls = calls;
        this.ttl = properties.toolsListTtl();
        this.clock = clock;
    }

    /** The upstream's list, from the cache while it is fresh and of this connection version. */
    Mono<ObjectNode> list(McpUpstream upstream) {
        UUID workspaceId = upstream.workspaceId();
        return Mono.defer(() -> {
            Entry entry = entries.get(workspaceId);
            Instant now = clock.instant();
            if (entry != null && entry.version() == upstream.version() && now.isBefore(entry.expiresAt())) {
                return Mono.just(entry.result().deepCopy());
            }
            return calls.listTools(upstream).doOnNext(result ->
                    entries.put(workspaceId, new Entry(upstream.version(), now.plus(ttl), result.deepCopy())));
        });
    }

    private record Entry(long version, Instant expiresAt, ObjectNode result) {}
}
