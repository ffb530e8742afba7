package io.agentgateway.mcpgate.upstream;

import io.agentgateway.mcpgate.config.McpGateProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} of a workspace's upstream, kept for {@code gateway.mcp.tools-list-ttl} (spec 4.3
 * rule 1). An entry is keyed by the connection's version, so a changed {@code mcp} connection is
 * never answered from the old server's list. Failures are not cached. Only the upstream's own list is kept (its
 * first page): which of its tools are offered is decided for every {@code tools/list} anew, so a policy change shows on
 * the next one, never kept here. A page asked for with a {@code cursor} is fetched each time.
 */
@Component
public class McpToolListCache {
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

    /**
     * The page {@code params} asks for when the cache holds it: only the first page (no {@code cursor}), fresh and of
     * this connection version; empty otherwise.
     */
    public Optional<ObjectNode> cached(McpUpstream upstream, ObjectNode params) {
        if (hasCursor(params)) {
            return Optional.empty();
        }
        Entry entry = entries.get(upstream.workspaceId());
        if (entry != null && entry.version() == upstream.version() && clock.instant().isBefore(entry.expiresAt())) {
            return Optional.of(entry.result().deepCopy());
        }
        return Optional.empty();
    }

    /** The page {@code params} asks for, from the upstream; the first page is kept for the TTL. */
    public Mono<ObjectNode> fetch(McpUpstream upstream, ObjectNode params) {
        if (hasCursor(params)) {
            return calls.relay(upstream, "tools/list", params);
        }
        return Mono.defer(() -> {
            Instant now = clock.instant();
            return calls.listTools(upstream).doOnNext(result ->
                    entries.put(upstream.workspaceId(), new Entry(upstream.version(), now.plus(ttl), result.deepCopy())));
        });
    }

    private static boolean hasCursor(ObjectNode params) {
        JsonNode cursor = params == null ? null : params.get("cursor");
        return cursor != null && !cursor.isNull();
    }

    private record Entry(long version, Instant expiresAt, ObjectNode result) {}
}
