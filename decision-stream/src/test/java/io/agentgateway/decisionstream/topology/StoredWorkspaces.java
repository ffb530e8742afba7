package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceConfig;
import io.agentgateway.decisioncore.state.WorkspaceCounters;
import io.agentgateway.decisioncore.state.WorkspaceEntries;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.kafka.JsonSerde;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The workspace stores of a {@link TopologyTestDriver}, read and pre-filled as the processor reads and writes
 * them: a state read from here is what the next command sees, a state put here is what it will see.
 */
public final class StoredWorkspaces {
    private static final JsonSerde<WorkspaceConfig> CONFIG_JSON = new JsonSerde<>(WorkspaceConfig.class);

    private final KeyValueStore<String, byte[]> configs;
    private final KeyValueStore<String, WorkspaceCounters> counters;
    private final KeyValueStore<String, ApiKeyGrant> apiKeys;
    private final KeyValueStore<String, String> apiKeyIds;
    private final KeyValueStore<String, PendingApproval> approvals;

    StoredWorkspaces(TopologyTestDriver driver) {
        configs = driver.getKeyValueStore(DecisionTopology.WORKSPACE_CONFIG_STORE);
        counters = driver.getKeyValueStore(DecisionTopology.WORKSPACE_COUNTERS_STORE);
        apiKeys = driver.getKeyValueStore(DecisionTopology.API_KEYS_STORE);
        apiKeyIds = driver.getKeyValueStore(DecisionTopology.API_KEY_IDS_STORE);
        approvals = driver.getKeyValueStore(DecisionTopology.APPROVALS_STORE);
    }

    /** The workspace as stored, null when nothing is stored for it. */
    public WorkspaceState get(String workspaceId) {
        byte[] config = configs.get(workspaceId);
        if (config == null) {
            return null;
        }
        WorkspaceCounters stored = counters.get(workspaceId);
        return WorkspaceState.of(CONFIG_JSON.deserialize("test", config), stored == null ? WorkspaceCounters.NONE : stored,
                entries(workspaceId));
    }

    /**
     * Pre-fills the stores with {@code state}'s configuration and counters (a new configuration version, so the
     * processor's cache does not answer with the old one) and the entries it wrote.
     */
    public void put(String workspaceId, WorkspaceState state) {
        WorkspaceCounters current = counters.get(workspaceId);
        long configVersion = (current == null ? 0 : current.configVersion()) + 1;
        configs.put(workspaceId, CONFIG_JSON.serialize("test", state.config()));
        counters.put(workspaceId, state.counters().withConfigVersion(configVersion));
        state.changes().apiKeys().forEach((hash, grant) -> put(apiKeys, EntryKeys.entry(workspaceId, hash), grant));
        state.changes().apiKeyIds().forEach((id, hash) -> put(apiKeyIds, EntryKeys.entry(workspaceId, id), hash));
        state.changes().approvals().forEach((id, approval) -> put(approvals, EntryKeys.entry(workspaceId, id), approval));
    }

    public Map<String, PendingApproval> approvals(String workspaceId) {
        return byId(approvals, workspaceId);
    }

    public Map<String, ApiKeyGrant> apiKeys(String workspaceId) {
        return byId(apiKeys, workspaceId);
    }

    public Map<String, String> apiKeyIds(String workspaceId) {
        return byId(apiKeyIds, workspaceId);
    }

    private WorkspaceEntries entries(String workspaceId) {
        return new WorkspaceEntries() {
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
        };
    }

    private static <V> Map<String, V> byId(KeyValueStore<String, V> store, String workspaceId) {
        Map<String, V> found = new TreeMap<>();
        String prefix = EntryKeys.entry(workspaceId, "");
        try (KeyValueIterator<String, V> range = store.prefixScan(prefix, new org.apache.kafka.common.serialization.StringSerializer())) {
            while (range.hasNext()) {
                KeyValue<String, V> next = range.next();
                found.put(next.key.substring(prefix.length()), next.value);
            }
        }
        return found;
    }

    private static <V> void put(KeyValueStore<String, V> store, String key, Optional<V> value) {
        if (value.isPresent()) {
            store.put(key, value.get());
        } else {
            store.delete(key);
        }
    }
}
