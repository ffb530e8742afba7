package io.agentgateway.schemas.event;

import java.time.Instant;

/** A pending approval passed its expiry without a review; it can no longer be approved. Emitted once. */
public record ApprovalExpired(String approvalId, Instant expiresAt) implements DomainEvent {}
