package io.agentgateway.schemas.event;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/** The approved call could not be run (or got no answer); {@code result} says why. It is not retried. */
public record ApprovedCallFailed(String approvalId, String executorId, JsonNode result, Instant failedAt)
        implements DomainEvent {}
