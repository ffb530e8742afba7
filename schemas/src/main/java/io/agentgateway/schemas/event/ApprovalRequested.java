package io.agentgateway.schemas.event;

import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Instant;

/**
 * A require_approval decision opened a pending approval. {@code callDigest} (SHA-256 hex of tool,
 * action and payload) binds the approval to the exact call that was held.
 */
public record ApprovalRequested(
        String approvalId,
        String auditLogId,
        Tool tool,
        String action,
        RiskLevel riskLevel,
        String agentId,
        String callDigest,
        Instant expiresAt) implements DomainEvent {}
