package io.agentgateway.decision.state;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything the decision stream knows about one workspace, as one immutable value in the
 * {@code workspace-state} store. Every change returns a new value; the collections are copied into
 * sorted, unmodifiable forms so that the stored JSON and every iteration are in one stable order
 * (a replay must reproduce byte-for-byte the same decisions).
 *
 * @param exists            false for a workspace id never created (the value handlers see for it)
 * @param pausedTools       tools paused by the kill switch's pause_tool
 * @param policies          by policy id
 * @param defaults          the decision per risk level when no policy matches (always complete)
 * @param apiKeys           by SHA-256 hash of the key
 * @param members           by user id
 * @param toolConnections   by tool; secrets sealed (a changelog topic and a disk store hold this value)
 * @param approvals         approval requests that can still move on (pending, approved with a call to
 *                          run, executing), by approval id; ended ones live in the read model only
 * @param policySetVersion  bumps whenever policies or defaults change
 * @param workspaceVersion  bumps whenever anything in this value changes (set by the processor)
 */
public record WorkspaceState(
        boolean exists,
        String name,
        boolean killSwitchEnabled,
        Set<Tool> pausedTools,
        Map<String, Policy> policies,
        Map<RiskLevel, Decision> defaults,
        Duration approvalTtl,
        Map<String, ApiKeyGrant> apiKeys,
        Map<String, Member> members,
        NotificationSettings notifications,
        Map<Tool, ToolConnection> toolConnections,
        Map<String, PendingApproval> approvals,
        long policySetVersion,
        long workspaceVersion) {

    /** Evaluation order of policies: lower priority first, ties broken by id (never by insertion order). */
    public static final Comparator<Policy> EVALUATION_ORDER =
            Comparator.comparingInt(Policy::priority).thenComparing(Policy::id);

    public WorkspaceState {
        pausedTools = pausedTools == null || pausedTools.isEmpty()
                ? Set.of()
                : Collections.unmodifiableSet(EnumSet.copyOf(pausedTools));
        policies = sorted(policies);
        defaults = completeDefaults(defaults);
        Objects.requireNonNull(approvalTtl, "approvalTtl");
        apiKeys = sorted(apiKeys);
        members = sorted(members);
        notifications = notifications == null ? NotificationSettings.initial() : notifications;
        toolConnections = byTool(toolConnections);
        approvals = sorted(approvals);
    }

    /** The state of a workspace id that was never created. */
    public static WorkspaceState absent(Duration approvalTtl) {
        return new WorkspaceState(false, null, false, Set.of(), Map.of(), BuiltInDefaults.decisions(), approvalTtl,
                Map.of(), Map.of(), NotificationSettings.initial(), Map.of(), Map.of(), 0, 0);
    }

    // ---- queries ----

    public Optional<Member> member(String userId) {
        return Optional.ofNullable(userId == null ? null : members.get(userId));
    }

    public long ownerCount() {
        return members.values().stream().filter(m -> m.role() == Role.OWNER).count();
    }

    public Optional<ToolConnection> toolConnection(Tool tool) {
        return Optional.ofNullable(tool == null ? null : toolConnections.get(tool));
    }

    public Optional<PendingApproval> approval(String approvalId) {
        return Optional.ofNullable(approvalId == null ? null : approvals.get(approvalId));
    }

    public Optional<ApiKeyGrant> apiKeyByHash(String keyHash) {
        return Optional.ofNullable(keyHash == null ? null : apiKeys.get(keyHash));
    }

    /** The hash under which the key with this id is stored, if any. */
    public Optional<String> apiKeyHashOf(String keyId) {
        return apiKeys.entrySet().stream()
                .filter(e -> e.getValue().keyId().equals(keyId))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** Enabled policies in evaluation order. */
    public List<Policy> enabledPoliciesInOrder() {
        return policies.values().stream().filter(Policy::enabled).sorted(EVALUATION_ORDER).toList();
    }

    /** Emails of everyone who may administer the workspace, sorted, without blanks. */
    public List<String> administratorEmails() {
        return members.values().stream()
                .filter(Member::mayAdminister)
                .map(Member::email)
                .filter(email -> email != null && !email.isBlank())
                .distinct()
                .sorted()
                .toList();
    }

    // ---- changes ----

    public WorkspaceState created(String newName, String ownerUserId, Member owner) {
        return new WorkspaceState(true, newName, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, Map.of(ownerUserId, owner), notifications, toolConnections, approvals, policySetVersion,
                workspaceVersion);
    }

    public WorkspaceState withKillSwitch(boolean enabled, Set<Tool> paused) {
        return new WorkspaceState(exists, name, enabled, paused, policies, defaults, approvalTtl,
                apiKeys, members, notifications, toolConnections, approvals, policySetVersion, workspaceVersion);
    }

    public WorkspaceState withPolicy(Policy policy) {
        Map<String, Policy> next = new TreeMap<>(policies);
        next.put(policy.id(), policy);
        return withPolicies(next);
    }

    public WorkspaceState withoutPolicy(String policyId) {
        Map<String, Policy> next = new TreeMap<>(policies);
        next.remove(policyId);
        return withPolicies(next);
    }

    /** Every policy replaced by {@code replacement} (a back-test's candidate set); all else stays as it is. */
    public WorkspaceState withPolicySet(Collection<Policy> replacement) {
        Map<String, Policy> next = new TreeMap<>();
        replacement.forEach(policy -> next.put(policy.id(), policy));
        return withPolicies(next);
    }

    private WorkspaceState withPolicies(Map<String, Policy> next) {
        long version = next.equals(policies) ? policySetVersion : policySetVersion + 1;
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, next, defaults, approvalTtl,
                apiKeys, members, notifications, toolConnections, approvals, version, workspaceVersion);
    }

    /** @param changes risk levels absent keep their current decision; a null ttl keeps the current one */
    public WorkspaceState withDefaults(Map<RiskLevel, Decision> changes, Duration ttl) {
        EnumMap<RiskLevel, Decision> next = new EnumMap<>(defaults);
        if (changes != null) {
            next.putAll(changes);
        }
        Duration nextTtl = ttl == null ? approvalTtl : ttl;
        boolean changed = !next.equals(defaults) || !nextTtl.equals(approvalTtl);
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, next, nextTtl,
                apiKeys, members, notifications, toolConnections, approvals,
                changed ? policySetVersion + 1 : policySetVersion, workspaceVersion);
    }

    public WorkspaceState withApiKey(String keyHash, ApiKeyGrant grant) {
        Map<String, ApiKeyGrant> next = new TreeMap<>(apiKeys);
        next.put(keyHash, grant);
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                next, members, notifications, toolConnections, approvals, policySetVersion, workspaceVersion);
    }

    public WorkspaceState withMember(String userId, Member member) {
        Map<String, Member> next = new TreeMap<>(members);
        next.put(userId, member);
        return withMembers(next);
    }

    public WorkspaceState withoutMember(String userId) {
        Map<String, Member> next = new TreeMap<>(members);
        next.remove(userId);
        return withMembers(next);
    }

    private WorkspaceState withMembers(Map<String, Member> next) {
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, next, notifications, toolConnections, approvals, policySetVersion, workspaceVersion);
    }

    public WorkspaceState withNotifications(NotificationSettings settings) {
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, members, settings, toolConnections, approvals, policySetVersion, workspaceVersion);
    }

    public WorkspaceState withToolConnection(ToolConnection connection) {
        Map<Tool, ToolConnection> next = new EnumMap<>(Tool.class);
        next.putAll(toolConnections);
        next.put(connection.tool(), connection);
        return withToolConnections(next);
    }

    public WorkspaceState withoutToolConnection(Tool tool) {
        Map<Tool, ToolConnection> next = new EnumMap<>(Tool.class);
        next.putAll(toolConnections);
        next.remove(tool);
        return withToolConnections(next);
    }

    private WorkspaceState withToolConnections(Map<Tool, ToolConnection> next) {
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, members, notifications, next, approvals, policySetVersion, workspaceVersion);
    }

    /** Opens an approval or moves it to its next status. */
    public WorkspaceState withApproval(String approvalId, PendingApproval approval) {
        Map<String, PendingApproval> next = new TreeMap<>(approvals);
        next.put(approvalId, approval);
        return withApprovals(next);
    }

    /** An approval that ended (rejected, expired, executed...) leaves the state: the read model keeps it. */
    public WorkspaceState withoutApprovals(Collection<String> approvalIds) {
        if (approvalIds.isEmpty()) {
            return this;
        }
        Map<String, PendingApproval> next = new TreeMap<>(approvals);
        next.keySet().removeAll(approvalIds);
        return withApprovals(next);
    }

    public WorkspaceState withoutApproval(String approvalId) {
        return withoutApprovals(List.of(approvalId));
    }

    private WorkspaceState withApprovals(Map<String, PendingApproval> next) {
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, members, notifications, toolConnections, next, policySetVersion, workspaceVersion);
    }

    public WorkspaceState withWorkspaceVersion(long version) {
        return new WorkspaceState(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                apiKeys, members, notifications, toolConnections, approvals, policySetVersion, version);
    }

    private static <V> Map<String, V> sorted(Map<String, V> map) {
        return map == null || map.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(map));
    }

    /** In tool order, whatever order they were stored in; states stored before connections existed have none. */
    private static Map<Tool, ToolConnection> byTool(Map<Tool, ToolConnection> map) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        EnumMap<Tool, ToolConnection> copy = new EnumMap<>(Tool.class);
        map.forEach((tool, connection) -> {
            if (tool != null && connection != null) {
                copy.put(tool, connection);
            }
        });
        return Collections.unmodifiableMap(copy);
    }

    /** Stored states written before a risk level existed still answer for every level. */
    private static Map<RiskLevel, Decision> completeDefaults(Map<RiskLevel, Decision> given) {
        EnumMap<RiskLevel, Decision> complete = new EnumMap<>(BuiltInDefaults.decisions());
        if (given != null) {
            given.forEach((risk, decision) -> {
                if (risk != null && decision != null) {
                    complete.put(risk, decision);
                }
            });
        }
        return Collections.unmodifiableMap(complete);
    }
}
