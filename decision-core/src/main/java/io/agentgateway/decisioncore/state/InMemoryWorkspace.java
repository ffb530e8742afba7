package io.agentgateway.decisioncore.state;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One workspace held in memory, doing what the topology's stores do: {@link #state()} is the state a
 * command is decided against, {@link #save} keeps what a decided state changed (with the versions bumped
 * as the topology bumps them). For deciding commands without Kafka: tests, benchmarks that fold a history
 * through the handlers. Not thread-safe; a state handed out reads the entries as they are when it asks,
 * so decide one command at a time and save its state before the next.
 */
public final class InMemoryWorkspace implements WorkspaceEntries {
    private WorkspaceConfig config;
    private WorkspaceCounters counters = WorkspaceCounters.NONE;
    private final Map<String, ApiKeyGrant> apiKeys = new HashMap<>();
    private final Map<String, String> apiKeyIds = new HashMap<>();
    private final Map<String, PendingApproval> approvals = new HashMap<>();

    /** A workspace id never created, with {@code approvalTtl} as its TTL until it sets its own. */
    public InMemoryWorkspace(Duration approvalTtl) {
        this.config = WorkspaceConfig.absent(approvalTtl);
    }

    public WorkspaceState state() {
        return WorkspaceState.of(config, counters, this);
    }

    /**
     * Keeps {@code decided}, the state a handler returned for a command decided against {@link #state()}.
     *
     * @return the state as kept, with its versions (the same state when nothing changed)
     */
    public WorkspaceState save(WorkspaceState before, WorkspaceState decided) {
        WorkspaceState after = decided.versionedAfter(before);
        if (after == before) {
            return before;
        }
        EntryChanges changes = after.changes();
        changes.apiKeys().forEach((hash, grant) -> put(apiKeys, hash, grant));
        changes.apiKeyIds().forEach((keyId, hash) -> put(apiKeyIds, keyId, hash));
        changes.approvals().forEach((id, approval) -> put(approvals, id, approval));
        config = after.config();
        counters = after.counters();
        return after;
    }

    /** The open approvals, by id (a copy). */
    public Map<String, PendingApproval> approvals() {
        return Collections.unmodifiableMap(new TreeMap<>(approvals));
    }

    /** The keys held, by hash (a copy). */
    public Map<String, ApiKeyGrant> apiKeys() {
        return Collections.unmodifiableMap(new TreeMap<>(apiKeys));
    }

    @Override
    public Optional<ApiKeyGrant> apiKey(String keyHash) {
        return Optional.ofNullable(apiKeys.get(keyHash));
    }

    @Override
    public Optional<String> apiKeyHash(String keyId) {
        return Optional.ofNullable(apiKeyIds.get(keyId));
    }

    @Override
    public Optional<PendingApproval> approval(String approvalId) {
        return Optional.ofNullable(approvals.get(approvalId));
    }

    private static <V> void put(Map<String, V> map, String key, Optional<V> value) {
        if (value.isPresent()) {
            map.put(key, value.get());
        } else {
            map.remove(key);
        }
    }
}
