package io.agentgateway.schemas.event;

import io.agentgateway.schemas.ToolConnection;

/** The connection to {@code connection.tool()} now reads as given (secrets sealed). */
public record ToolConnectionUpserted(ToolConnection connection) implements DomainEvent {}
