package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the decision stream knows about one workspace, as a command sees it: the configuration value, the
 * counters, and the workspace's entries (API keys, open approvals), each read only when a command asks
 * for it. Handlers read through the queries and change through the {@code with...} methods, which return a
 * new state that records what changed; the topology then writes only that (the configuration value when
 * it changed, the counters, the touched entries). Immutable: the state a handler was given is never
 * changed by what it derives from it.
 *
 * <p>Entries are read from a {@link WorkspaceEntries} (the stores in the topology, memory elsewhere) and
 * overlaid with the entries this state has written. Two states are equal when their configuration,
 * counters and written entries are; the entries they read are not compared.
 */
public final class WorkspaceState {
    /** Evaluation order of policies: lower priority first, ties broken by id (never by insertion order). */
    public static final Comparator<Policy> EVALUATION_ORDER = PolicySet.EVALUATION_ORDER;

    private final WorkspaceConfig config;
    private final WorkspaceCounters counters;
    private final WorkspaceEntries stored;
    private final EntryChanges changes;

    private WorkspaceState(WorkspaceConfig config, WorkspaceCounters counters, WorkspaceEntries stored,
                           EntryChanges changes) {
        this.config = Objects.requireNonNull(config, "config");
        this.counters = Objects.requireNonNull(counters, "counters");
        this.stored = Objects.requireNonNull(stored, "stored");
        this.changes = Objects.requireNonNull(changes, "changes");
    }

    /** The state of a workspace id that was never created. */
    public static WorkspaceState absent(Duration approvalTtl) {
        return new WorkspaceState(WorkspaceConfig.absent(approvalTtl), WorkspaceCounters.NONE, WorkspaceEntries.NONE,
                EntryChanges.NONE);
    }

    /** A workspace as stored: its configuration, its counters and its entries. */
    public static WorkspaceState of(WorkspaceConfig config, WorkspaceCounters counters, WorkspaceEntries entries) {
        return new WorkspaceState(config, counters, entries, EntryChanges.NONE);
    }

    // ---- what it is made of ----

    public WorkspaceConfig config() {
        return config;
    }

    public WorkspaceCounters counters() {
        return counters;
    }

    /** The entries written since the state was read. */
    public EntryChanges changes() {
        return changes;
    }

    /** Whether anything differs from {@code before}, the state this one was derived from. */
    public boolean changedFrom(WorkspaceState before) {
        return !changes.isEmpty() || !config.equals(before.config) || !counters.equals(before.counters);
    }

    public boolean configChangedFrom(WorkspaceState before) {
        return !config.equals(before.config);
    }

    /**
     * This state as stored after a command that started from {@code before}: the workspace version
     * bumped when anything changed, the configuration version when the configuration did. {@code before}
     * itself when nothing changed.
     */
    public WorkspaceState versionedAfter(WorkspaceState before) {
        if (!changedFrom(before)) {
            return before;
        }
        WorkspaceCounters next = counters.withWorkspaceVersion(before.counters.workspaceVersion() + 1)
                .withConfigVersion(configChangedFrom(before)
                        ? before.counters.configVersion() + 1
                        : before.counters.configVersion());
        return new WorkspaceState(config, next, stored, changes);
    }

    // ---- queries ----

    public boolean exists() {
        return config.exists();
    }

    public String name() {
        return config.name();
    }

    public boolean killSwitchEnabled() {
        return config.killSwitchEnabled();
    }

    public Set<Tool> pausedTools() {
        return config.pausedTools();
    }

    /** By policy id. */
    public Map<String, Policy> policies() {
        return config.policies().asMap();
    }

    public Map<RiskLevel, Decision> defaults() {
        return config.defaults();
    }

    public Duration approvalTtl() {
        return config.approvalTtl();
    }

    /** The time zone policy conditions read the command's time in (UTC unless the workspace set one). */
    public ZoneId timeZone() {
        return config.zone();
    }

    public Map<String, Member> members() {
        return config.members();
    }

    public NotificationSettings notifications() {
        return config.notifications();
    }

    public Map<Tool, ToolConnection> toolConnections() {
        return config.toolConnections();
    }

    public long policySetVersion() {
        return config.policySetVersion();
    }

    public long workspaceVersion() {
        return counters.workspaceVersion();
    }

    public long openApprovalCount() {
        return counters.openApprovals();
    }

    /** Keys held, revoked and expired ones included until they leave the state. */
    public long apiKeyCount() {
        return counters.apiKeys();
    }

    public Optional<Member> member(String userId) {
        return Optional.ofNullable(userId == null ? null : config.members().get(userId));
    }

    public long ownerCount() {
        return config.members().values().stream().filter(m -> m.role() == Role.OWNER).count();
    }

    public Optional<ToolConnection> toolConnection(Tool tool) {
        return Optional.ofNullable(tool == null ? null : config.toolConnections().get(tool));
    }

    public Optional<PendingApproval> approval(String approvalId) {
        if (approvalId == null) {
            return Optional.empty();
        }
        Optional<PendingApproval> written = changes.approvals().get(approvalId);
        return written != null ? written : stored.approval(approvalId);
    }

    public Optional<ApiKeyGrant> apiKeyByHash(String keyHash) {
        if (keyHash == null) {
            return Optional.empty();
        }
        Optional<ApiKeyGrant> written = changes.apiKeys().get(keyHash);
        return written != null ? written : stored.apiKey(keyHash);
    }

    /** The hash under which the key with this id is stored, if any. */
    public Optional<String> apiKeyHashOf(String keyId) {
        if (keyId == null) {
            return Optional.empty();
        }
        Optional<String> written = changes.apiKeyIds().get(keyId);
        return written != null ? written : stored.apiKeyHash(keyId);
    }

    /** Enabled policies in evaluation order (worked out once per policy set, not per call). */
    public List<Policy> enabledPoliciesInOrder() {
        return config.policies().enabledInOrder();
    }

    /** Enabled policies that can apply to {@code tool}, in evaluation order (see {@link PolicySet#enabledInOrderFor}). */
    public List<Policy> enabledPoliciesInOrderFor(Tool tool) {
        return config.policies().enabledInOrderFor(tool);
    }

    /** Emails of everyone who may administer the workspace, sorted, without blanks. */
    public List<String> administratorEmails() {
        return config.members().values().stream()
                .filter(Member::mayAdminister)
                .map(Member::email)
                .filter(email -> email != null && !email.isBlank())
                .distinct()
                .sorted()
                .toList();
    }

    // ---- changes ----

    public WorkspaceState created(String newName, String ownerUserId, Member owner) {
        return withConfig(config.created(newName, Map.of(ownerUserId, owner)));
    }

    public WorkspaceState withKillSwitch(boolean enabled, Set<Tool> paused) {
        return withConfig(config.withKillSwitch(enabled, paused));
    }

    public WorkspaceState withPolicy(Policy policy) {
        return withConfig(config.withPolicies(config.policies().with(policy)));
    }

    public WorkspaceState withoutPolicy(String policyId) {
        return withConfig(config.withPolicies(config.policies().without(policyId)));
    }

    /** Every policy replaced by {@code replacement} (a back-test's candidate set); all else stays as it is. */
    public WorkspaceState withPolicySet(Collection<Policy> replacement) {
        return withConfig(config.withPolicySet(replacement));
    }

    /** @param changes risk levels absent keep their current decision; a null ttl keeps the current one */
    public WorkspaceState withDefaults(Map<RiskLevel, Decision> changes, Duration ttl) {
        return withConfig(config.withDefaults(changes, ttl));
    }

    /** @param zone an IANA id; null or UTC: UTC */
    public WorkspaceState withTimeZone(String zone) {
        return withConfig(config.withTimeZone(zone));
    }

    public WorkspaceState withMember(String userId, Member member) {
        Map<String, Member> next = new TreeMap<>(config.members());
        next.put(userId, member);
        return withConfig(config.withMembers(next));
    }

    public WorkspaceState withoutMember(String userId) {
        Map<String, Member> next = new TreeMap<>(config.members());
        next.remove(userId);
        return withConfig(config.withMembers(next));
    }

    public WorkspaceState withNotifications(NotificationSettings settings) {
        return withConfig(config.withNotifications(settings));
    }

    public WorkspaceState withToolConnection(ToolConnection connection) {
        Map<Tool, ToolConnection> next = new EnumMap<>(Tool.class);
        next.putAll(config.toolConnections());
        next.put(connection.tool(), connection);
        return withConfig(config.withToolConnections(next));
    }

    public WorkspaceState withoutToolConnection(Tool tool) {
        Map<Tool, ToolConnection> next = new EnumMap<>(Tool.class);
        next.putAll(config.toolConnections());
        next.remove(tool);
        return withConfig(config.withToolConnections(next));
    }

    /** Issues a key or changes it (a revocation); a new key counts towards the workspace's keys. */
    public WorkspaceState withApiKey(String keyHash, ApiKeyGrant grant) {
        boolean isNew = apiKeyByHash(keyHash).isEmpty();
        return new WorkspaceState(config, isNew ? counters.plusApiKeys(1) : counters, stored,
                changes.withApiKey(keyHash, grant));
    }

    /** A key leaves the state (the sweep does this once it ended a grace period ago). */
    public WorkspaceState withoutApiKey(String keyHash) {
        Optional<ApiKeyGrant> current = apiKeyByHash(keyHash);
        if (current.isEmpty()) {
            return this;
        }
        return new WorkspaceState(config, counters.plusApiKeys(-1), stored,
                changes.withoutApiKey(keyHash, current.get().keyId()));
    }

    /** Opens an approval or moves it to its next status; a new one counts towards the open approvals. */
    public WorkspaceState withApproval(String approvalId, PendingApproval approval) {
        boolean isNew = approval(approvalId).isEmpty();
        return new WorkspaceState(config, isNew ? counters.plusApprovals(1) : counters, stored,
                changes.withApproval(approvalId, approval));
    }

    /** An approval that ended (rejected, expired, executed...) leaves the state: the read model keeps it. */
    public WorkspaceState withoutApprovals(Collection<String> approvalIds) {
        WorkspaceState next = this;
        for (String approvalId : approvalIds) {
            next = next.withoutApproval(approvalId);
        }
        return next;
    }

    public WorkspaceState withoutApproval(String approvalId) {
        if (approval(approvalId).isEmpty()) {
            return this;
        }
        return new WorkspaceState(config, counters.plusApprovals(-1), stored, changes.withApproval(approvalId, null));
    }

    public WorkspaceState withWorkspaceVersion(long version) {
        return new WorkspaceState(config, counters.withWorkspaceVersion(version), stored, changes);
    }

    private WorkspaceState withConfig(WorkspaceConfig next) {
        return next.equals(config) ? this : new WorkspaceState(next, counters, stored, changes);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof WorkspaceState other
                && config.equals(other.config) && counters.equals(other.counters) && changes.equals(other.changes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(config, counters, changes);
    }

    @Override
    public String toString() {
        return "WorkspaceState[" + config + ", " + counters + ", " + changes + "]";
    }
}
