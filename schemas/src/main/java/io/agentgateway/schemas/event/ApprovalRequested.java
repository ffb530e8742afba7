package io.agentgateway.schemas.event;

import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.SealedHeldCall;
import java.time.Instant;

/**
 * A require_approval decision opened a pending approval. {@code callDigest} (SHA-256 hex of tool,
 * action and payload, or of tool, action and the held call when there is one) binds the approval to
 * the exact call that was held. {@code heldCall} is the sealed call the gateway runs once after
 * approval (proxy and MCP gate), null when the caller makes the call itself (evaluate-action).
 * {@code callView} is what reviewers are shown of that call (bounded, redacted), as the entry point
 * made it from the call it sealed; null when there is none.
 */
public record ApprovalRequested(
        String approvalId,
        String auditLogId,
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String callDigest,
        Instant expiresAt,
        SealedHeldCall heldCall,
        CallView callView) implements DomainEvent {

    /** Without a call view (the form written before reviewers were shown the call). */
    public ApprovalRequested(String approvalId, String auditLogId, Tool tool, String action, RiskLevel riskLevel,
                             String agentId, String callDigest, Instant expiresAt, SealedHeldCall heldCall) {
        this(approvalId, auditLogId, tool, action, riskLevel, agentId, callDigest, expiresAt, heldCall, null);
    }

    /** The v1 form without a held call. */
    public ApprovalRequested(String approvalId, String auditLogId, Tool tool, String action, RiskLevel riskLevel,
                             String agentId, String callDigest, Instant expiresAt) {
        this(approvalId, auditLogId, tool, action, riskLevel, agentId, callDigest, expiresAt, null, null);
    }

    /** The same request with another held call (a stored outcome leaves it out and takes it from the command again). */
    public ApprovalRequested withHeldCall(SealedHeldCall call) {
        return new ApprovalRequested(approvalId, auditLogId, tool, action, riskLevel, agentId, callDigest, expiresAt, call,
                callView);
    }

    /** The same request with another call view (a stored outcome leaves it out and takes it from the command again). */
    public ApprovalRequested withCallView(CallView view) {
        return new ApprovalRequested(approvalId, auditLogId, tool, action, riskLevel, agentId, callDigest, expiresAt, heldCall,
                view);
    }
}
