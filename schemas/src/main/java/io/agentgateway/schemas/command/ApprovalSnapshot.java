package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Tool;
import java.time.Instant;

/**
 * An approval as the decision stream holds it while it is open, on the reply to a {@link CheckAccess}
 * that asked for it: what the status endpoint can show before the read model has the approval.
 *
 * @param status pending, approved or executing (the wire names of the approval lifecycle)
 */
public record ApprovalSnapshot(String approvalId, String status, Tool tool, String action, Instant expiresAt) {}
