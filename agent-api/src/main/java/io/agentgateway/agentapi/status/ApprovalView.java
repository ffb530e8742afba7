package io.agentgateway.agentapi.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * The approval request object of spec section 2 with ok = true, plus what the call was, and for a
 * {@code cancelled} approval (approved, but the kill switch or the tool's pause stopped it at its run)
 * why it did not run. {@code callView}: what the held call will do, bounded and redacted by the entry point that
 * sealed it, and {@code callDigest}, the digest that binds the approval to it.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
record ApprovalView(
        boolean ok,
        String id,
        String status,
        Instant reviewedAt,
        String reviewedBy,
        String reviewReason,
        JsonNode executionResult,
        Instant expiresAt,
        String tool,
        String action,
        String riskLevel,
        Instant createdAt,
        String cancelReason,
        String callDigest,
        JsonNode callView) {}
