package io.agentgateway.schemas.event;

import java.time.Instant;

/** The one claim an approved call gets: {@code executorId} runs it now, and nobody ever runs it again. */
public record ApprovedCallClaimed(String approvalId, String executorId, Instant claimedAt) implements DomainEvent {}
