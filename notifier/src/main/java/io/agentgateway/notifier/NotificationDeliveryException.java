package io.agentgateway.notifier;

import io.agentgateway.notifier.channel.Channel;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A notification was not delivered on some of its channels and is worth retrying. Thrown out of the
 * listener so that the Kafka error handler redelivers it (the channels that did succeed are
 * skipped by the ledger) and, after the last attempt, dead-letters it.
 */
public class NotificationDeliveryException extends RuntimeException {
    private final Map<Channel, String> failures;

    public NotificationDeliveryException(String notificationId, Map<Channel, String> failures) {
        super("notification " + notificationId + " not delivered: " + describe(failures));
        this.failures = new EnumMap<>(failures);
    }

    public Set<Channel> failedChannels() {
        return failures.keySet();
    }

    /** {@code chat: chat webhook answered HTTP 500; ...}: safe to log and to put into headers. */
    public String failureSummary() {
        return describe(failures);
    }

    private static String describe(Map<Channel, String> failures) {
        return failures.entrySet().stream()
                .map(failure -> failure.getKey().wireName() + ": " + failure.getValue())
                .collect(Collectors.joining("; "));
    }
}
