package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Tool;

/** The workspace has no connection to {@code tool} any more. */
public record ToolConnectionDeleted(Tool tool) implements DomainEvent {}
