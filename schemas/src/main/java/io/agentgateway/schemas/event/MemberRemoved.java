package io.agentgateway.schemas.event;

public record MemberRemoved(String userId) implements DomainEvent {}
