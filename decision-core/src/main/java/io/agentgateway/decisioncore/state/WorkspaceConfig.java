package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A workspace's configuration: the one value of the {@code workspace-config} store per workspace, read by
 * every command and written only when an administrator changes something in it. Its size is bounded by
 * the workspace's limits (policies, their size, repositories per connection, and the value's size
 * itself); API keys and approvals are entries of their own and never in here. Immutable; the
 * collections are sorted, unmodifiable copies, so the stored JSON and every iteration have one stable
 * order (a replay must reproduce byte for byte the same decisions).
 *
 * @param exists            false for a workspace id never created
 * @param pausedTools       tools paused by the kill switch's pause_tool
 * @param defaults          the decision per risk level when no policy matches (always complete)
 * @param members           by user id
 * @param toolConnections   by tool; secrets sealed (a changelog topic and a disk store hold this value)
 * @param policySetVersion  bumps whenever policies or defaults change
 * @param timeZone          the workspace's time zone (IANA id) in which policy conditions read the command's time;
 *                          null for UTC (also in values stored before conditions)
 */
public record WorkspaceConfig(
        boolean exists,
        String name,
        boolean killSwitchEnabled,
        Set<Tool> pausedTools,
        PolicySet policies,
        Map<RiskLevel, Decision> defaults,
        Duration approvalTtl,
        Map<String, Member> members,
        NotificationSettings notifications,
        Map<Tool, ToolConnection> toolConnections,
        long policySetVersion,
        String timeZone) {

    public WorkspaceConfig {
        timeZone = timeZone == null || timeZone.equals("UTC") ? null : timeZone;
        pausedTools = pausedTools == null || pausedTools.isEmpty()
                ? Set.of()
                : Collections.unmodifiableSet(EnumSet.copyOf(pausedTools));
        policies = policies == null ? PolicySet.EMPTY : policies;
        defaults = completeDefaults(defaults);
        Objects.requireNonNull(approvalTtl, "approvalTtl");
        members = members == null || members.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(members));
        notifications = notifications == null ? NotificationSettings.initial() : notifications;
        toolConnections = byTool(toolConnections);
    }

    /** The configuration of a workspace id that was never created. */
    public static WorkspaceConfig absent(Duration approvalTtl) {
        return new WorkspaceConfig(false, null, false, Set.of(), PolicySet.EMPTY, BuiltInDefaults.decisions(), approvalTtl,
                Map.of(), NotificationSettings.initial(), Map.of(), 0, null);
    }

    public WorkspaceConfig created(String newName, Map<String, Member> firstMembers) {
        return new WorkspaceConfig(true, newName, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl,
                firstMembers, notifications, toolConnections, policySetVersion, timeZone);
    }

    public WorkspaceConfig withKillSwitch(boolean enabled, Set<Tool> paused) {
        return new WorkspaceConfig(exists, name, enabled, paused, policies, defaults, approvalTtl, members, notifications,
                toolConnections, policySetVersion, timeZone);
    }

    public WorkspaceConfig withPolicies(PolicySet next) {
        long version = next.equals(policies) ? policySetVersion : policySetVersion + 1;
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, next, defaults, approvalTtl, members,
                notifications, toolConnections, version, timeZone);
    }

    public WorkspaceConfig withPolicySet(Collection<Policy> replacement) {
        return withPolicies(PolicySet.of(replacement));
    }

    /** @param changes risk levels absent keep their current decision; a null ttl keeps the current one */
    public WorkspaceConfig withDefaults(Map<RiskLevel, Decision> changes, Duration ttl) {
        EnumMap<RiskLevel, Decision> next = new EnumMap<>(defaults);
        if (changes != null) {
            next.putAll(changes);
        }
        Duration nextTtl = ttl == null ? approvalTtl : ttl;
        boolean changed = !next.equals(defaults) || !nextTtl.equals(approvalTtl);
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, policies, next, nextTtl, members,
                notifications, toolConnections, changed ? policySetVersion + 1 : policySetVersion, timeZone);
    }

    public WorkspaceConfig withMembers(Map<String, Member> next) {
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl, next,
                notifications, toolConnections, policySetVersion, timeZone);
    }

    public WorkspaceConfig withNotifications(NotificationSettings settings) {
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl, members,
                settings, toolConnections, policySetVersion, timeZone);
    }

    public WorkspaceConfig withToolConnections(Map<Tool, ToolConnection> next) {
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl, members,
                notifications, next, policySetVersion, timeZone);
    }

    private static final ZoneId UTC = ZoneId.of("UTC");

    /** The time zone policy conditions read the command's time in. */
    public ZoneId zone() {
        return timeZone == null ? UTC : ZoneId.of(timeZone);
    }

    /** The same configuration in another time zone (an IANA id; null or UTC: UTC). */
    public WorkspaceConfig withTimeZone(String zone) {
        String next = zone == null || zone.equals("UTC") ? null : zone;
        // the time zone changes what conditions decide, as the policies and defaults do
        long version = Objects.equals(next, timeZone) ? policySetVersion : policySetVersion + 1;
        return new WorkspaceConfig(exists, name, killSwitchEnabled, pausedTools, policies, defaults, approvalTtl, members,
                notifications, toolConnections, version, next);
    }

    /** In tool order, whatever order they were stored in. */
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

    /** A value missing a risk level (written before the level existed) still answers for every level. */
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
