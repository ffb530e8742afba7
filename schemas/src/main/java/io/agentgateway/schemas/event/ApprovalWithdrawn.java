package io.agentgateway.schemas.event;

import java.time.Instant;

/**
 * A pending approval withdrawn by the API key that asked for it (the envelope's actor): it ends here, its held
 * call is never run and no reviewer can approve it any more.
 *
 * @param reason what the agent's side said, or null
 */
public record ApprovalWithdrawn(String approvalId, String reason, Instant withdrawnAt) implements DomainEvent {}
