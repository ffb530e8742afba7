package io.agentgateway.decisioncore.state;

import java.util.Optional;

/**
 * Read access to one workspace's entries as they were before the command at hand: its API keys and
 * open approvals, each an entry of its own. The topology reads them from their stores, one lookup per
 * entry a command touches; tests and the back-test hold them in memory ({@link InMemoryWorkspace}).
 */
public interface WorkspaceEntries {
    /** A workspace without entries. */
    WorkspaceEntries NONE = new WorkspaceEntries() {
        @Override
        public Optional<ApiKeyGrant> apiKey(String keyHash) {
            return Optional.empty();
        }

        @Override
        public Optional<String> apiKeyHash(String keyId) {
            return Optional.empty();
        }

        @Override
        public Optional<PendingApproval> approval(String approvalId) {
            return Optional.empty();
        }
    };

    Optional<ApiKeyGrant> apiKey(String keyHash);

    /** The hash under which the key with this id is stored. */
    Optional<String> apiKeyHash(String keyId);

    Optional<PendingApproval> approval(String approvalId);
}
