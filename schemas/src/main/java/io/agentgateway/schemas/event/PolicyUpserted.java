package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Policy;

public record PolicyUpserted(Policy policy) implements DomainEvent {}
