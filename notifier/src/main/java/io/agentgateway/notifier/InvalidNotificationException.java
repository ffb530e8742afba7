package io.agentgateway.notifier;

/** A record that parsed but cannot be a notification (no value, no id): retrying cannot help. */
public class InvalidNotificationException extends RuntimeException {
    public InvalidNotificationException(String message) {
        super(message);
    }
}
