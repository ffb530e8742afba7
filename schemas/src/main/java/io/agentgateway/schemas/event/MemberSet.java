package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Role;

public record MemberSet(String userId, String email, Role role) implements DomainEvent {}
