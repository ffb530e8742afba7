package io.agentgateway.schemas.event;

public record PolicyDeleted(String policyId) implements DomainEvent {}
