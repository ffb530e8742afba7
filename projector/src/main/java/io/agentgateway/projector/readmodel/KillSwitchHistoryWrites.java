package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;

/** {@code kill_switch_history}: one immutable row per kill-switch call with the state after it, keyed by its audit log id. */
final class KillSwitchHistoryWrites {
    private KillSwitchHistoryWrites() {}

    private static final SqlStatement INSERT = SqlStatement.appendOnly("""
            insert into kill_switch_history (audit_log_id, workspace_id, action, tool, kill_switch_enabled, paused_tools,
                actor_user_id, correlation_id, occurred_at, reason)
            values (:audit_log_id::uuid, :workspace_id::uuid, :action, :tool, :kill_switch_enabled, :paused_tools,
                :actor_user_id, :correlation_id, :occurred_at, :reason)
            on conflict (audit_log_id) do nothing
            """);

    static Write changed(EventEnvelope envelope, KillSwitchChanged event) {
        return new Write(INSERT, EnvelopeParams.of(envelope)
                .uuid("audit_log_id", event.auditLogId())
                .wire("action", event.action(), KillSwitchAction::wire)
                .wire("tool", event.tool(), Tool::wire)
                .bool("kill_switch_enabled", event.killSwitchEnabled())
                .textArray("paused_tools", WorkspaceWrites.toolNames(event.pausedTools()))
                .text("reason", event.reason())
                .source());
    }
}
