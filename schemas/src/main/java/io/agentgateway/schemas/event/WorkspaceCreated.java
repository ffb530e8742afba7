package io.agentgateway.schemas.event;

public record WorkspaceCreated(String name, String ownerUserId, String ownerEmail) implements DomainEvent {}
