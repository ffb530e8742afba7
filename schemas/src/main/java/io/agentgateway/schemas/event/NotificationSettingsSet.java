package io.agentgateway.schemas.event;

/** Says only whether a chat webhook is configured; the sealed URL stays in the decision stream. */
public record NotificationSettingsSet(boolean chatConfigured, boolean emailEnabled) implements DomainEvent {}
