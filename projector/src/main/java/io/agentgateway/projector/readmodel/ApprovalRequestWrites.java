package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * {@code approval_requests}, keyed by approval id: inserted once as pending, then moved along the
 * lifecycle. Every transition applies only from the status it leaves ({@code where status = ...}), so
 * a redelivered request never resets a reviewed approval and a replayed review never undoes an
 * execution. All of these run in event order (not as append-only inserts): the insert must land
 * before a review of the same batch updates it.
 */
final class ApprovalRequestWrites {
    private ApprovalRequestWrites() {}

    static final String STATUS_PENDING = "pending";

    private static final SqlStatement INSERT = SqlStatement.inEventOrder("""
            insert into approval_requests (id, workspace_id, audit_log_id, correlation_id, tool, action, risk_level,
                agent_id, call_digest, status, created_at, expires_at, updated_at, held_call_kind, sealed_held_call, call_view,
                requested_by_key_hash, held_trace_parent)
            values (:id::uuid, :workspace_id::uuid, :audit_log_id::uuid, :correlation_id, :tool, :action, :risk_level,
                :agent_id, :call_digest, :status, :occurred_at, :expires_at, :occurred_at, :held_call_kind, :sealed_held_call,
                :call_view::jsonb, :requested_by_key_hash, :held_trace_parent)
            on conflict (id) do nothing
            """);

    /** An approval that ends here keeps no held call: it will never run. */
    private static final SqlStatement REVIEW = SqlStatement.inEventOrder("""
            update approval_requests
               set status = :status, reviewed_at = :reviewed_at, reviewed_by = :reviewed_by,
                   review_reason = :review_reason, updated_at = :occurred_at,
                   sealed_held_call = case when :keeps_held_call then sealed_held_call end
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status = 'pending'
            """);

    private static final SqlStatement EXPIRE = SqlStatement.inEventOrder("""
            update approval_requests
               set status = 'expired', updated_at = :occurred_at, sealed_held_call = null
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status = 'pending'
            """);

    private static final SqlStatement CLAIM = SqlStatement.inEventOrder("""
            update approval_requests
               set status = 'executing', claimed_by = :claimed_by, claimed_at = :claimed_at, updated_at = :occurred_at
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status = 'approved'
            """);

    /** From approved too: the claim and the outcome of one run may arrive in one batch in either order. */
    private static final SqlStatement FINISH = SqlStatement.inEventOrder("""
            update approval_requests
               set status = :status, execution_result = :execution_result::jsonb, executed_at = :executed_at,
                   updated_at = :occurred_at, sealed_held_call = null
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status in ('approved', 'executing')
            """);

    /** Only from pending: the key that asked withdrew it (an MCP client's tasks/cancel); it will never run. */
    private static final SqlStatement WITHDRAW = SqlStatement.inEventOrder("""
            update approval_requests
               set status = 'withdrawn', cancel_reason = :cancel_reason, cancelled_at = :cancelled_at,
                   updated_at = :occurred_at, sealed_held_call = null
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status = 'pending'
            """);

    /** Only from approved: the claim that would have run it was refused (kill switch, paused tool). */
    private static final SqlStatement CANCEL = SqlStatement.inEventOrder("""
            update approval_requests
               set status = 'cancelled', cancel_reason = :cancel_reason, cancelled_at = :cancelled_at,
                   updated_at = :occurred_at, sealed_held_call = null
             where id = :id::uuid and workspace_id = :workspace_id::uuid and status = 'approved'
            """);

    static Write requested(EventEnvelope envelope, ApprovalRequested event) {
        return requested(envelope, event, null);
    }

    /** @param heldTraceParent the {@code traceparent} of the traced request that opened it (the executor's span links to it) */
    static Write requested(EventEnvelope envelope, ApprovalRequested event, String heldTraceParent) {
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
                .wire("held_call_kind", event.heldCall() == null ? null : event.heldCall().kind(), HeldCallKind::wire)
                .text("sealed_held_call", event.heldCall() == null ? null : event.heldCall().sealed())
                // what reviewers are shown of the held call: bounded and redacted by the entry point
                .json("call_view", event.callView() == null ? null : GatewayJson.MAPPER.writeValueAsString(event.callView()))
                // the key an MCP task of it is bound to (null when no key asked: a webhook)
                .text("requested_by_key_hash", envelope.actor() != null && envelope.actor().kind() == ActorKind.API_KEY
                        ? envelope.actor().apiKeyHash() : null)
                .text("held_trace_parent", heldTraceParent)
                .source());
    }

    static Write withdrawn(EventEnvelope envelope, ApprovalWithdrawn event) {
        return new Write(WITHDRAW, EnvelopeParams.of(envelope)
                .uuid("id", event.approvalId())
                .text("cancel_reason", event.reason())
                .timestamp("cancelled_at", event.withdrawnAt())
                .source());
    }

    static Write reviewed(EventEnvelope envelope, ApprovalReviewed event) {
        boolean approved = event.verdict() == ReviewVerdict.APPROVE;
        return new Write(REVIEW, EnvelopeParams.of(envelope)
                .uuid("id", event.approvalId())
                .text("status", approved ? "approved" : "rejected")
                .timestamp("reviewed_at", event.reviewedAt())
                .text("reviewed_by", event.reviewedBy())
                .text("review_reason", event.reason())
                .bool("keeps_held_call", approved && event.heldCallKind() != null)
                .source());
    }

    static Write expired(EventEnvelope envelope, ApprovalExpired event) {
        return new Write(EXPIRE, EnvelopeParams.of(envelope).uuid("id", event.approvalId()).source());
    }

    static Write claimed(EventEnvelope envelope, ApprovedCallClaimed event) {
        return new Write(CLAIM, EnvelopeParams.of(envelope)
                .uuid("id", event.approvalId())
                .text("claimed_by", event.executorId())
                .timestamp("claimed_at", event.claimedAt())
                .source());
    }

    static Write cancelled(EventEnvelope envelope, ApprovedCallCancelled event) {
        return new Write(CANCEL, EnvelopeParams.of(envelope)
                .uuid("id", event.approvalId())
                .text("cancel_reason", event.reason())
                .timestamp("cancelled_at", event.cancelledAt())
                .source());
    }

    static Write executed(EventEnvelope envelope, ApprovedCallExecuted event) {
        return finished(envelope, event.approvalId(), "executed", event.result(), event.executedAt());
    }

    static Write failed(EventEnvelope envelope, ApprovedCallFailed event) {
        return finished(envelope, event.approvalId(), "failed", event.result(), event.failedAt());
    }

    private static Write finished(EventEnvelope envelope, String approvalId, String status, JsonNode result, Instant at) {
        return new Write(FINISH, EnvelopeParams.of(envelope)
                .uuid("id", approvalId)
                .text("status", status)
                .json("execution_result", result == null ? null : GatewayJson.MAPPER.writeValueAsString(result))
                .timestamp("executed_at", at)
                .source());
    }
}
