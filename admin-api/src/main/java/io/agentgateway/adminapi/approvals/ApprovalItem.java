package io.agentgateway.adminapi.approvals;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * An approval as a reviewer sees it: what they need to decide; never the held call itself (it stays sealed): what it
 * will do as its {@code callView} (bounded and redacted by the entry point that sealed it) and the {@code callDigest}
 * that binds the approval to it. {@code status} is the status a reader sees (an approval past its expiry is
 * {@code expired} before the stream's sweep says so).
 */
public record ApprovalItem(String id, String status, String tool, String action, String riskLevel, String agentId,
                           String auditLogId, String correlationId, String heldCallKind, Instant createdAt,
                           Instant expiresAt, Instant reviewedAt, String reviewedBy, String reviewReason,
                           Instant executedAt, JsonNode executionResult, Instant cancelledAt, String cancelReason,
                           String callDigest, JsonNode callView) {}
