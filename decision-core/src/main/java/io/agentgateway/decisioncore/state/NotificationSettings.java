package io.agentgateway.decisioncore.state;

/**
 * Where the workspace's notifications go. The chat webhook URL stays sealed (SecretBox) in the state and
 * in notifications; only the notifier can open it.
 */
public record NotificationSettings(String sealedChatWebhookUrl, boolean emailEnabled) {

    /** A new workspace mails its admins and has no chat channel until one is configured. */
    public static NotificationSettings initial() {
        return new NotificationSettings(null, true);
    }

    public boolean chatConfigured() {
        return sealedChatWebhookUrl != null;
    }
}
