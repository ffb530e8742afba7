package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.EntryChanges;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceConfig;
import io.agentgateway.decisioncore.state.WorkspaceCounters;
import io.agentgateway.decisioncore.state.WorkspaceEntries;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.kafka.JsonSerde;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The workspace state in its stores, at the grain that changes together:
 *
 * <pre>
 *   workspace-config    workspaceId                 → WorkspaceConfig (JSON)   read by every command
 *   workspace-counters  workspaceId                 → WorkspaceCounters        written by every state change
 *   api-keys            workspaceId \n keyHash      → ApiKeyGrant              read by an evaluation (its key)
 *   api-key-ids         workspaceId \n keyId        → keyHash                  revocation by id
 *   approvals           workspaceId \n approvalId   → PendingApproval
 *   expiry-index        time \n kind \n workspace \n id → (empty)             swept by {@link ExpirySweep}
 * </pre>
 *
 * A command reads the counters, the configuration (usually from {@link ConfigCache}) and the entries its
 * handler asks for, one lookup each; {@link #save} writes the configuration only when it changed, the
 * counters, and the entries the command touched, keeping the expiry index in step with them.
 */
final class WorkspaceStores {
    private static final JsonSerde<WorkspaceConfig> CONFIG_JSON = new JsonSerde<>(WorkspaceConfig.class);

    private final KeyValueStore<String, byte[]> configs;
    private final KeyValueStore<String, WorkspaceCounters> counters;
    private final KeyValueStore<String, ApiKeyGrant> apiKeys;
    private final KeyValueStore<String, String> apiKeyIds;
    private final KeyValueStore<String, PendingApproval> approvals;
    private final ExpiryIndex expiries;
    private final ConfigCache cache;
    private final DecisionSettings settings;

    WorkspaceStores(ProcessingContext context, DecisionSettings settings) {
        this.configs = context.getStateStore(DecisionTopology.WORKSPACE_CONFIG_STORE);
        this.counters = context.getStateStore(DecisionTopology.WORKSPACE_COUNTERS_STORE);
        this.apiKeys = context.getStateStore(DecisionTopology.API_KEYS_STORE);
        this.apiKeyIds = context.getStateStore(DecisionTopology.API_KEY_IDS_STORE);
        this.approvals = context.getStateStore(DecisionTopology.APPROVALS_STORE);
        this.expiries = new ExpiryIndex(context.getStateStore(DecisionTopology.EXPIRY_INDEX_STORE));
        this.cache = new ConfigCache(settings.configCacheBytes());
        this.settings = settings;
    }

    ExpiryIndex expiries() {
        return expiries;
    }

    /** The workspace as a command sees it; "absent" (never created) when nothing is stored for it. */
    WorkspaceState load(String workspaceId) {
        WorkspaceCounters stored = counters.get(workspaceId);
        WorkspaceCounters current = stored == null ? WorkspaceCounters.NONE : stored;
        return WorkspaceState.of(config(workspaceId, current), current, new StoredEntries(workspaceId));
    }

    WorkspaceConfig config(String workspaceId, WorkspaceCounters current) {
        WorkspaceConfig cached = cache.get(workspaceId, current.configVersion());
        if (cached != null) {
            return cached;
        }
        byte[] bytes = configs.get(workspaceId);
        if (bytes == null) {
            return WorkspaceConfig.absent(settings.approvalTtl());
        }
        WorkspaceConfig config = CONFIG_JSON.deserialize(DecisionTopology.WORKSPACE_CONFIG_STORE, bytes);
        cache.put(workspaceId, config, current.configVersion(), bytes.length);
        return config;
    }

    /**
     * Stores what {@code decided} changed against {@code before} (the state {@link #load} gave for the same
     * command), with the versions bumped.
     *
     * @return the state as stored; {@code before} itself when nothing changed
     */
    WorkspaceState save(String workspaceId, WorkspaceState before, WorkspaceState decided) {
        WorkspaceState after = decided.versionedAfter(before);
        if (after == before) {
            return before;
        }
        if (after.configChangedFrom(before)) {
            byte[] bytes = CONFIG_JSON.serialize(DecisionTopology.WORKSPACE_CONFIG_STORE, after.config());
            configs.put(workspaceId, bytes);
            cache.put(workspaceId, after.config(), after.counters().configVersion(), bytes.length);
        }
        EntryChanges changes = after.changes();
        changes.apiKeys().forEach((hash, grant) -> saveApiKey(workspaceId, hash, grant));
        changes.apiKeyIds().forEach((keyId, hash) -> {
            String key = EntryKeys.entry(workspaceId, keyId);
            if (hash.isPresent()) {
                apiKeyIds.put(key, hash.get());
            } else {
                apiKeyIds.delete(key);
            }
        });
        changes.approvals().forEach((id, approval) -> saveApproval(workspaceId, id, approval));
        counters.put(workspaceId, after.counters());
        return after;
    }

    private void saveApiKey(String workspaceId, String hash, Optional<ApiKeyGrant> grant) {
        String key = EntryKeys.entry(workspaceId, hash);
        Optional<Instant> before = Optional.ofNullable(apiKeys.get(key)).flatMap(this::removableAt);
        Optional<Instant> after = grant.flatMap(this::removableAt);
        if (before.isPresent() && !before.equals(after)) {
            expiries.remove(before.get().toEpochMilli(), EntryKeys.API_KEY, workspaceId, hash);
        }
        if (after.isPresent() && !after.equals(before)) {
            expiries.add(after.get().toEpochMilli(), EntryKeys.API_KEY, workspaceId, hash);
        }
        if (grant.isPresent()) {
            apiKeys.put(key, grant.get());
        } else {
            apiKeys.delete(key);
        }
    }

    private void saveApproval(String workspaceId, String approvalId, Optional<PendingApproval> approval) {
        String key = EntryKeys.entry(workspaceId, approvalId);
        Optional<Instant> before = Optional.ofNullable(approvals.get(key)).map(PendingApproval::sweepAt);
        Optional<Instant> after = approval.map(PendingApproval::sweepAt);
        if (before.isPresent() && !before.equals(after)) {
            expiries.remove(before.get().toEpochMilli(), EntryKeys.APPROVAL, workspaceId, approvalId);
        }
        if (after.isPresent() && !after.equals(before)) {
            expiries.add(after.get().toEpochMilli(), EntryKeys.APPROVAL, workspaceId, approvalId);
        }
        if (approval.isPresent()) {
            approvals.put(key, approval.get());
        } else {
            approvals.delete(key);
        }
    }

    Optional<Instant> removableAt(ApiKeyGrant grant) {
        return grant.removableAt(settings.apiKeyGrace());
    }

    // ---- for the expiry sweep, which works on entries directly (no command, no version bump) ----

    PendingApproval storedApproval(String workspaceId, String approvalId) {
        return approvals.get(EntryKeys.entry(workspaceId, approvalId));
    }

    void deleteApproval(String workspaceId, String approvalId, Instant indexedAt) {
        approvals.delete(EntryKeys.entry(workspaceId, approvalId));
        expiries.remove(indexedAt.toEpochMilli(), EntryKeys.APPROVAL, workspaceId, approvalId);
    }

    ApiKeyGrant storedApiKey(String workspaceId, String keyHash) {
        return apiKeys.get(EntryKeys.entry(workspaceId, keyHash));
    }

    void deleteApiKey(String workspaceId, String keyHash, ApiKeyGrant grant) {
        apiKeys.delete(EntryKeys.entry(workspaceId, keyHash));
        String idKey = EntryKeys.entry(workspaceId, grant.keyId());
        if (keyHash.equals(apiKeyIds.get(idKey))) {
            apiKeyIds.delete(idKey);
        }
    }

    void removeIndexEntry(EntryKeys.Expiry due) {
        expiries.remove(due.epochMillis(), due.kind(), due.workspaceId(), due.id());
    }

    void reindexApiKey(EntryKeys.Expiry stale, Instant at) {
        removeIndexEntry(stale);
        expiries.add(at.toEpochMilli(), EntryKeys.API_KEY, stale.workspaceId(), stale.id());
    }

    WorkspaceCounters counters(String workspaceId) {
        WorkspaceCounters stored = counters.get(workspaceId);
        return stored == null ? WorkspaceCounters.NONE : stored;
    }

    void saveCounters(Map<String, WorkspaceCounters> changed) {
        changed.forEach(counters::put);
    }

    void clearCache() {
        cache.clear();
    }

    /** One workspace's entries as stored, looked up one by one as a handler asks. */
    private final class StoredEntries implements WorkspaceEntries {
        private final String workspaceId;

        StoredEntries(String workspaceId) {
            this.workspaceId = workspaceId;
        }

        @Override
        public Optional<ApiKeyGrant> apiKey(String keyHash) {
            return Optional.ofNullable(apiKeys.get(EntryKeys.entry(workspaceId, keyHash)));
        }

        @Override
        public Optional<String> apiKeyHash(String keyId) {
            return Optional.ofNullable(apiKeyIds.get(EntryKeys.entry(workspaceId, keyId)));
        }

        @Override
        public Optional<PendingApproval> approval(String approvalId) {
            return Optional.ofNullable(approvals.get(EntryKeys.entry(workspaceId, approvalId)));
        }
    }
}
