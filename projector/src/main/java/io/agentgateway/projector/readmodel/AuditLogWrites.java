package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;

/**
 * {@code audit_log}: one row per evaluation, per kill-switch call and per command refused at a workspace
 * limit, keyed by the audit log id the caller was given. The kinds share one statement so they share one
 * JDBC batch. Rows are immutable but for {@code undelivered}, which an {@link EvaluationUndelivered} sets.
 */
final class AuditLogWrites {
    private AuditLogWrites() {}

    static final String KIND_ACTION_EVALUATED = "action_evaluated";
    static final String KIND_KILL_SWITCH = "kill_switch";
    static final String KIND_LIMIT_REACHED = "limit_reached";

    private static final SqlStatement INSERT = SqlStatement.appendOnly("""
            insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind,
                tool, action, risk_level, supplied_risk_level, risk_classification, risk_overridden_by_caller,
                decision, reason, matched_policy_id, matched_policy_name, approval_request_id, agent_id,
                agent_name, resource_type, resource_id, requested_by, source, actor_user_id, payload_excerpt,
                payload_truncated, payload_bytes, policy_set_version, workspace_version, undelivered, agent_identity,
                condition_errors, sequence, leaf_hash, payload_sha256, payload_excerpt_sha256)
            values (:id::uuid, :workspace_id::uuid, :event_id::uuid, :command_id, :correlation_id, :occurred_at, :kind,
                :tool, :action, :risk_level, :supplied_risk_level, :risk_classification, :risk_overridden_by_caller,
                :decision, :reason, :matched_policy_id, :matched_policy_name, :approval_request_id::uuid, :agent_id,
                :agent_name, :resource_type, :resource_id, :requested_by, :source, :actor_user_id, :payload_excerpt,
                :payload_truncated, :payload_bytes, :policy_set_version, :workspace_version, :undelivered, :agent_identity,
                :condition_errors::jsonb, :sequence, :leaf_hash, :payload_sha256, :payload_excerpt_sha256)
            on conflict (id) do nothing
            """);

    /**
     * An entry whose answer reached nobody though it was decided in time (its caller got 503/504).
     * The one column of an audit row that ever changes, and only from false to true.
     */
    private static final SqlStatement MARK_UNDELIVERED = SqlStatement.amendingAppended("""
            update audit_log set undelivered = true
             where id = :id::uuid and workspace_id = :workspace_id::uuid and not undelivered
            """);

    static Write undelivered(EventEnvelope envelope, EvaluationUndelivered event) {
        return new Write(MARK_UNDELIVERED, EnvelopeParams.of(envelope).uuid("id", event.auditLogId()).source());
    }

    static Write actionEvaluated(EventEnvelope envelope, ActionEvaluated event) {
        return new Write(INSERT, EnvelopeParams.of(envelope)
                .uuid("id", event.auditLogId())
                .text("kind", KIND_ACTION_EVALUATED)
                .wire("tool", event.tool(), Tool::wire)
                .text("action", event.action())
                .wire("risk_level", event.riskLevel(), RiskLevel::wire)
                .wire("supplied_risk_level", event.suppliedRiskLevel(), RiskLevel::wire)
                .wire("risk_classification", event.riskClassification(), RiskClassification::wire)
                .bool("risk_overridden_by_caller", event.riskOverriddenByCaller())
                .wire("decision", event.decision(), Decision::wire)
                .text("reason", event.reason())
                .text("matched_policy_id", event.matchedPolicyId())
                .text("matched_policy_name", event.matchedPolicyName())
                .uuid("approval_request_id", event.approvalRequestId())
                .text("agent_id", event.agentId())
                .text("agent_name", event.agentName())
                .text("resource_type", event.resourceType())
                .text("resource_id", event.resourceId())
                .text("requested_by", event.requestedBy())
                .wire("source", event.source(), ActionSource::wire)
                .text("payload_excerpt", event.payloadExcerpt())
                .bool("payload_truncated", event.payloadTruncated())
                .integer("payload_bytes", event.payloadBytes())
                // decided after the caller's deadline: the answer reached nobody
                .bool("undelivered", event.wasUndelivered())
                // whether the agent id was bound to the API key or only asserted by the caller
                .wire("agent_identity", event.agentIdentity(), AgentIdentity::wire)
                // policy conditions that could not be evaluated, and what the fail-closed rule made of each
                .json("condition_errors", event.conditionErrors() == null ? null
                        : GatewayJson.MAPPER.writeValueAsString(event.conditionErrors()))
                .sealed(envelope.seal())
                .source());
    }

    /** Spec 4.2: every kill-switch call is an audit entry of risk critical; it decides nothing. */
    static Write killSwitch(EventEnvelope envelope, KillSwitchChanged event) {
        return undecidedEntry(envelope, event.auditLogId(), KIND_KILL_SWITCH,
                event.tool() == null ? null : event.tool().wire(),
                event.action() == null ? null : "kill_switch." + event.action().wire(), RiskLevel.CRITICAL, null);
    }

    /**
     * A command refused at a workspace limit: action = the refused command's wire type, reason = the error the
     * caller was given; it decided nothing and changed nothing, hence risk {@code low} and no decision.
     */
    static Write limitReached(EventEnvelope envelope, LimitReached event) {
        return undecidedEntry(envelope, event.auditLogId(), KIND_LIMIT_REACHED, null,
                event.command() == null ? "unknown" : event.command(), RiskLevel.LOW, event.message());
    }

    /**
     * An audit entry that decides nothing (a kill-switch call, a command refused at a limit): every column of an
     * evaluation left empty, in one place, so that a column added for evaluations is set for these rows too.
     */
    private static Write undecidedEntry(EventEnvelope envelope, String auditLogId, String kind, String tool, String action,
                                        RiskLevel risk, String reason) {
        return new Write(INSERT, EnvelopeParams.of(envelope)
                .uuid("id", auditLogId)
                .text("kind", kind)
                .text("tool", tool)
                .text("action", action)
                .text("risk_level", risk.wire())
                .text("supplied_risk_level", null)
                .text("risk_classification", null)
                .bool("risk_overridden_by_caller", false)
                .text("decision", null)
                .text("reason", reason)
                .text("matched_policy_id", null)
                .text("matched_policy_name", null)
                .uuid("approval_request_id", null)
                .text("agent_id", null)
                .text("agent_name", null)
                .text("resource_type", null)
                .text("resource_id", null)
                .text("requested_by", null)
                .text("source", null)
                .text("payload_excerpt", null)
                .bool("payload_truncated", false)
                .integer("payload_bytes", null)
                .bool("undelivered", false)
                .text("agent_identity", null)
                .json("condition_errors", null)
                .sealed(envelope.seal())
                .source());
    }
}
