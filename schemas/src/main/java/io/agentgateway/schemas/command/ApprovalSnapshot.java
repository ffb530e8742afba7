package io.agentgateway.schemas.command;

import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Tool;
import java.time.Instant;

/**
 * An approval as the decision stream holds it while it is open, on the reply to a {@link CheckAccess}
 * that asked for it: what the status endpoint can show before the read model has the approval.
 *
 * @param status             pending, approved or executing (the wire names of the approval lifecycle)
 * @param createdAt          when the evaluation that opened it was accepted (the read model's {@code created_at});
 *                           null for approvals opened before it was recorded
 * @param requestedByKeyHash the SHA-256 hash of the API key whose evaluation opened it (an MCP task is bound to it);
 *                           null when no key opened it (a webhook) or before it was recorded
 * @param heldCallKind       the kind of call the gateway runs once it is approved; null when there is none
 */
public record ApprovalSnapshot(String approvalId, String status, Tool tool, String action, Instant expiresAt,
                               Instant createdAt, String requestedByKeyHash, HeldCallKind heldCallKind) {

    /** Without when and by whom it was opened and what it holds (the form before MCP tasks). */
    public ApprovalSnapshot(String approvalId, String status, Tool tool, String action, Instant expiresAt) {
        this(approvalId, status, tool, action, expiresAt, null, null, null);
    }
}
