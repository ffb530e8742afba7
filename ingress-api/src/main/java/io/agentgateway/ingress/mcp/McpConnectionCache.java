package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.connection.ToolConnectionChangeObserver;
import io.agentgateway.ingress.connection.ToolConnectionChangedHere;
import io.agentgateway.schemas.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * A workspace's {@code mcp} connection, read from PostgreSQL once and then served from memory, so a
 * {@code tools/call} does not cost a database round trip. An entry is dropped when the events topic
 * says the connection changed ({@code ToolConnectionChangeListener}), and is never older than
 * {@code gateway.mcp.connection-cache-ttl} (a bound should a change be missed).
 *
 * <p>The read model lags the log: a change can be seen on the log before the projector wrote it. So
 * the cache remembers the workspace version of the last change it saw and keeps only a row at least
 * that new; an older row is used for the call at hand (what reading the table would have given) but
 * not kept, and the table is read again next time until the projector has caught up.
 *
 * <p>Until the listener is positioned on the events topic (and whenever it loses its partitions) the
 * cache is bypassed: without it a change could go unseen.
 */
@Component
class McpConnectionCache implements ToolConnectionChangeObserver {
    private final McpUpstreams upstreams;
    private final Duration ttl;
    private final Clock clock;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();
    private final Map<UUID, Long> changedAt = new ConcurrentHashMap<>();
    private volatile boolean listening;

    @Autowired
    McpConnectionCache(McpUpstreams upstreams, McpGateProperties properties) {
        this(upstreams, properties.connectionCacheTtl(), Clock.systemUTC());
    }

    McpConnectionCache(McpUpstreams upstreams, Duration ttl, Clock clock) {
        this.upstreams = upstreams;
        this.ttl = ttl;
        this.clock = clock;
    }

    Mono<McpUpstream> of(UUID workspaceId) {
        return Mono.defer(() -> {
            Instant now = clock.instant();
            Entry entry = entries.get(workspaceId);
            if (listening && entry != null && now.isBefore(entry.expiresAt())) {
                return Mono.just(entry.upstream());
            }
            return upstreams.of(workspaceId).doOnNext(upstream -> keep(upstream, now));
        });
    }

    private void keep(McpUpstream upstream, Instant loadedAt) {
        if (!listening || ttl.isZero()) {
            return;
        }
        entries.compute(upstream.workspaceId(), (id, current) -> {
            // a row older than a change already seen is the projector lagging: use it, do not keep it
            if (upstream.version() < changedAt.getOrDefault(id, Long.MIN_VALUE)) {
                return current;
            }
            if (current != null && current.upstream().version() > upstream.version()) {
                return current;
            }
            return new Entry(upstream, loadedAt.plus(ttl));
        });
    }

    @Override
    public void changed(UUID workspaceId, Tool tool, long workspaceVersion) {
        if (tool != Tool.MCP) {
            return;
        }
        changedAt.merge(workspaceId, workspaceVersion, Math::max);
        entries.computeIfPresent(workspaceId, (id, current) ->
                current.upstream().version() >= workspaceVersion ? current : null);
    }

    /**
     * This instance changed the workspace's mcp connection: drop what is kept now, not when the change
     * comes back over the events topic. A call that reads the old row again meanwhile (the projector
     * lagging) may keep it, but only until {@link #changed} arrives, as without this.
     */
    @EventListener
    void changedHere(ToolConnectionChangedHere change) {
        if (change.tool() == Tool.MCP) {
            entries.remove(change.workspaceId());
        }
    }

    /**
     * Whether changes are being seen. Either way everything kept so far is forgotten: losing the
     * changes makes it untrustworthy, and an entry a call was storing while they were lost must not
     * survive into the next time they are seen.
     */
    @Override
    public void listening(boolean value) {
        listening = value;
        entries.clear();
    }

    @Override
    public void forgetAll() {
        entries.clear();
    }

    boolean isListening() {
        return listening;
    }

    private record Entry(McpUpstream upstream, Instant expiresAt) {}
}
