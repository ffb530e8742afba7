package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.state.WorkspaceConfig;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded configuration values of one stream task's workspaces, least recently used out first, bounded
 * by their stored size. Every command reads its workspace's configuration and most (evaluations) never
 * change it: without this an evaluation would read and parse a value that grows with the workspace's
 * policies. An entry is used only while the workspace's counters still name the configuration version
 * it was decoded at, so it can never answer with a value other than what the store holds, whoever wrote
 * the store. Values are immutable (the state records are). One instance per processor, so per task and
 * thread: not synchronized.
 */
final class ConfigCache {
    private record Cached(WorkspaceConfig config, long configVersion, int bytes) {}

    private final long maxBytes;
    private final LinkedHashMap<String, Cached> byWorkspace = new LinkedHashMap<>(256, 0.75f, true);
    private long keptBytes;

    ConfigCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The configuration decoded at {@code configVersion}, or null. */
    WorkspaceConfig get(String workspaceId, long configVersion) {
        Cached cached = byWorkspace.get(workspaceId);
        return cached != null && cached.configVersion() == configVersion ? cached.config() : null;
    }

    void put(String workspaceId, WorkspaceConfig config, long configVersion, int bytes) {
        if (bytes > maxBytes) {
            forget(workspaceId);
            return;
        }
        Cached previous = byWorkspace.put(workspaceId, new Cached(config, configVersion, bytes));
        keptBytes += bytes - (previous == null ? 0 : previous.bytes());
        Iterator<Map.Entry<String, Cached>> oldest = byWorkspace.entrySet().iterator();
        while (keptBytes > maxBytes && oldest.hasNext()) {
            keptBytes -= oldest.next().getValue().bytes();
            oldest.remove();
        }
    }

    void forget(String workspaceId) {
        Cached previous = byWorkspace.remove(workspaceId);
        if (previous != null) {
            keptBytes -= previous.bytes();
        }
    }

    void clear() {
        byWorkspace.clear();
        keptBytes = 0;
    }

    int size() {
        return byWorkspace.size();
    }
}
