package io.agentgateway.schemas.command;

/**
 * Where notifications go besides the admins' email. The chat incoming-webhook URL is a credential
 * (whoever has it can post), so it travels sealed by {@link io.agentgateway.schemas.secret.SecretBox};
 * null clears it, unless {@code keepChatWebhook} is true: then the URL stored already stays (a client that never
 * sees the URL, the console, changes the email setting alone). Absent {@code keepChatWebhook} (records before it):
 * false.
 */
public record SetNotificationSettings(String sealedChatWebhookUrl, boolean emailEnabled, Boolean keepChatWebhook)
        implements Command {

    public SetNotificationSettings(String sealedChatWebhookUrl, boolean emailEnabled) {
        this(sealedChatWebhookUrl, emailEnabled, null);
    }

    public boolean keepsChatWebhook() {
        return Boolean.TRUE.equals(keepChatWebhook);
    }
}
