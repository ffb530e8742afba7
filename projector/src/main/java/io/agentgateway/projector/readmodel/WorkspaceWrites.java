package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The {@code workspaces} row: created once, then each setting overwritten only by a newer version. */
final class WorkspaceWrites {
    private WorkspaceWrites() {}

    private static final SqlStatement CREATE = SqlStatement.inEventOrder("""
            insert into workspaces (id, name, created_at, workspace_version, policy_set_version, updated_at)
            values (:workspace_id::uuid, :name, :occurred_at, :workspace_version, :policy_set_version, :occurred_at)
            on conflict (id) do nothing
            """);

    private static final SqlStatement SET_KILL_SWITCH = SqlStatement.inEventOrder("""
            update workspaces
               set kill_switch_enabled = :kill_switch_enabled,
                   paused_tools = :paused_tools,
                   workspace_version = :workspace_version,
                   updated_at = :occurred_at
             where id = :workspace_id::uuid and workspace_version <= :workspace_version
            """);

    private static final SqlStatement SET_DEFAULTS = SqlStatement.inEventOrder("""
            update workspaces
               set default_decisions = :default_decisions::jsonb,
                   approval_ttl_seconds = :approval_ttl_seconds,
                   time_zone = coalesce(:time_zone, time_zone),
                   policy_set_version = greatest(policy_set_version, :policy_set_version),
                   workspace_version = :workspace_version,
                   updated_at = :occurred_at
             where id = :workspace_id::uuid and workspace_version <= :workspace_version
            """);

    private static final SqlStatement SET_NOTIFICATION_SETTINGS = SqlStatement.inEventOrder("""
            update workspaces
               set chat_configured = :chat_configured,
                   email_enabled = :email_enabled,
                   workspace_version = :workspace_version,
                   updated_at = :occurred_at
             where id = :workspace_id::uuid and workspace_version <= :workspace_version
            """);

    static Write created(EventEnvelope envelope, WorkspaceCreated event) {
        return new Write(CREATE, EnvelopeParams.of(envelope).text("name", event.name()).source());
    }

    static Write killSwitch(EventEnvelope envelope, KillSwitchChanged event) {
        return new Write(SET_KILL_SWITCH, EnvelopeParams.of(envelope)
                .bool("kill_switch_enabled", event.killSwitchEnabled())
                .textArray("paused_tools", toolNames(event.pausedTools()))
                .source());
    }

    static Write defaults(EventEnvelope envelope, WorkspaceDefaultsSet event) {
        Long ttlSeconds = event.approvalTtl() == null ? null : event.approvalTtl().toSeconds();
        return new Write(SET_DEFAULTS, EnvelopeParams.of(envelope)
                .json("default_decisions", defaultDecisionsJson(event.decisions()))
                .bigint("approval_ttl_seconds", ttlSeconds)
                // records before time zones carry none: the zone stays as it was (UTC)
                .text("time_zone", event.timeZone())
                .source());
    }

    static Write notificationSettings(EventEnvelope envelope, NotificationSettingsSet event) {
        return new Write(SET_NOTIFICATION_SETTINGS, EnvelopeParams.of(envelope)
                .bool("chat_configured", event.chatConfigured())
                .bool("email_enabled", event.emailEnabled())
                .source());
    }

    /** Sorted wire names, so the same set always yields the same array. */
    static List<String> toolNames(Set<Tool> tools) {
        return tools == null ? List.of() : tools.stream().sorted().map(Tool::wire).toList();
    }

    /** {"low":"allow",...} in severity order, with the wire names the rest of the gateway uses. */
    private static String defaultDecisionsJson(Map<RiskLevel, Decision> decisions) {
        Map<String, String> byWireName = new LinkedHashMap<>();
        if (decisions != null) {
            decisions.entrySet().stream()
                    .filter(entry -> entry.getKey() != null && entry.getValue() != null)
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(entry -> byWireName.put(entry.getKey().wire(), entry.getValue().wire()));
        }
        return GatewayJson.MAPPER.writeValueAsString(byWireName);
    }
}
