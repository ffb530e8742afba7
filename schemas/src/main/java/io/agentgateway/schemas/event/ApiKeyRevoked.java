package io.agentgateway.schemas.event;

public record ApiKeyRevoked(String keyId) implements DomainEvent {}
