package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.EventEnvelope;

/**
 * {@code approval_requests}, keyed by approval id. Inserted once as pending and never overwritten
 * by a redelivery: a later review (approved, executed...) must not be reset to pending.
 */
final class ApprovalRequestWrites {
    private ApprovalRequestWrites() {}

    static final String STATUS_PENDING = "pending";

    private static final SqlStatement INSERT = SqlStatement.appendOnly("""
            insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                agent_id, call_digest, status, created_at, expires_at, updated_at)
            values (:id::uuid, :workspace_id::uuid, :audit_log_id::uuid, :correlation_id, :tool, :action, :risk_level,
                :agent_id, :call_digest, :status, :occurred_at, :expires_at, :occurred_at)
            on conflict (id) do nothing
            """);

    static Write requested(EventEnvelope envelope, ApprovalRequested event) {
        return new Write(INSERT, EnvelopeParams.of(envelope)
                .uuid("id", event.approvalId())
                .uuid("audit_log_id", event.auditLogId())
                .wire("tool", event.tool(), Tool::wire)
                .text("action", event.action())
                .wire("risk_level", event.riskLevel(), RiskLevel::wire)
                .text("agent_id", event.agentId())
                .text("call_digest", event.callDigest())
                .text("status", STATUS_PENDING)
                .timestamp("expires_at", event.expiresAt())
                .source());
    }
}
