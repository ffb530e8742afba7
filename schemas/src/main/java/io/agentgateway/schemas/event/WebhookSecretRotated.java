package io.agentgateway.schemas.event;

import io.agentgateway.schemas.ToolConnection;

/**
 * The connection's webhook secret was replaced; the whole connection after the change, so the
 * projection is the same upsert as {@link ToolConnectionUpserted}. A separate event because a
 * rotation is its own fact in the history (webhooks signed with the old secret fail from here on).
 */
public record WebhookSecretRotated(ToolConnection connection) implements DomainEvent {}
