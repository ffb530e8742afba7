package io.agentgateway.decisioncore.state;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The entries one command wrote, on top of the entries stored before it: each key is either set to a
 * value or removed (an empty Optional). Sorted, so entries are persisted in one stable order. Small: a
 * command touches a few entries.
 */
public record EntryChanges(Map<String, Optional<ApiKeyGrant>> apiKeys,
                           Map<String, Optional<String>> apiKeyIds,
                           Map<String, Optional<PendingApproval>> approvals) {
    public static final EntryChanges NONE = new EntryChanges(Map.of(), Map.of(), Map.of());

    public EntryChanges {
        apiKeys = Collections.unmodifiableMap(new TreeMap<>(apiKeys));
        apiKeyIds = Collections.unmodifiableMap(new TreeMap<>(apiKeyIds));
        approvals = Collections.unmodifiableMap(new TreeMap<>(approvals));
    }

    public boolean isEmpty() {
        return apiKeys.isEmpty() && apiKeyIds.isEmpty() && approvals.isEmpty();
    }

    EntryChanges withApiKey(String keyHash, ApiKeyGrant grant) {
        return withKeyEntries(keyHash, Optional.of(grant), grant.keyId(), Optional.of(keyHash));
    }

    EntryChanges withoutApiKey(String keyHash, String keyId) {
        return withKeyEntries(keyHash, Optional.empty(), keyId, Optional.empty());
    }

    private EntryChanges withKeyEntries(String keyHash, Optional<ApiKeyGrant> grant, String keyId, Optional<String> hash) {
        Map<String, Optional<ApiKeyGrant>> keys = new TreeMap<>(apiKeys);
        keys.put(keyHash, grant);
        Map<String, Optional<String>> ids = new TreeMap<>(apiKeyIds);
        ids.put(keyId, hash);
        return new EntryChanges(keys, ids, approvals);
    }

    EntryChanges withApproval(String approvalId, PendingApproval approval) {
        Map<String, Optional<PendingApproval>> next = new TreeMap<>(approvals);
        next.put(approvalId, Optional.ofNullable(approval));
        return new EntryChanges(apiKeys, apiKeyIds, next);
    }
}
