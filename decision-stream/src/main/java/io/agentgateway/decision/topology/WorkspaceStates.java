package io.agentgateway.decision.topology;

import io.agentgateway.decision.state.WorkspaceState;
import java.time.Duration;
import org.apache.kafka.streams.state.KeyValueStore;

/** The {@code workspace-state} store, answering "absent" rather than null for a workspace never created. */
final class WorkspaceStates {
    private final KeyValueStore<String, WorkspaceState> store;
    private final Duration defaultApprovalTtl;

    WorkspaceStates(KeyValueStore<String, WorkspaceState> store, Duration defaultApprovalTtl) {
        this.store = store;
        this.defaultApprovalTtl = defaultApprovalTtl;
    }

    WorkspaceState load(String workspaceId) {
        WorkspaceState state = store.get(workspaceId);
        return state == null ? WorkspaceState.absent(defaultApprovalTtl) : state;
    }

    void save(String workspaceId, WorkspaceState state) {
        store.put(workspaceId, state);
    }
}
