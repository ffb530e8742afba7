package io.agentgateway.schemas.event;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/** The approved call ran and the upstream answered; {@code result} is what the status endpoint shows. */
public record ApprovedCallExecuted(String approvalId, String executorId, JsonNode result, Instant executedAt)
        implements DomainEvent {}
