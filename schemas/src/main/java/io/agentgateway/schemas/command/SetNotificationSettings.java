package io.agentgateway.schemas.command;

/**
 * Where notifications go besides the admins' email. The chat incoming-webhook URL is a credential
 * (whoever has it can post), so it travels sealed by {@link io.agentgateway.schemas.secret.SecretBox};
 * null clears it.
 */
public record SetNotificationSettings(String sealedChatWebhookUrl, boolean emailEnabled) implements Command {}
