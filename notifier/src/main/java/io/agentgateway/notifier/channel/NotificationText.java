package io.agentgateway.notifier.channel;

import io.agentgateway.schemas.event.NotificationRequested;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The human-readable forms of a notification: email subject and body, chat message. */
public final class NotificationText {

    private NotificationText() {}

    public static String subject(NotificationRequested n) {
        String subject = isBlank(n.subject()) ? "Agent gateway notification: " + orDash(n.kind()) : n.subject();
        // a line break in a header would let event data add headers of its own
        return subject.replaceAll("[\\r\\n]+", " ").strip();
    }

    /** Plain text: the notification's text, then its details and the ids needed to find it in the audit log. */
    public static String emailBody(NotificationRequested n) {
        return emailBody(n, ReviewLinks.pathsOnly());
    }

    /** As {@link #emailBody(NotificationRequested)}, with how to review an approval request right after the text. */
    public static String emailBody(NotificationRequested n, ReviewLinks links) {
        StringBuilder body = new StringBuilder();
        if (!isBlank(n.text())) {
            body.append(n.text().strip()).append("\n\n");
        }
        List<String> review = links.lines(n);
        if (!review.isEmpty()) {
            body.append(review.get(0)).append('\n');
            review.stream().skip(1).forEach(line -> body.append("  ").append(line).append('\n'));
            body.append('\n');
        }
        Map<String, String> details = sortedDetails(n);
        if (!details.isEmpty()) {
            body.append("Details:\n");
            details.forEach((key, value) -> body.append("  ").append(key).append(": ").append(value).append('\n'));
            body.append('\n');
        }
        body.append("Workspace: ").append(orDash(n.workspaceId())).append('\n');
        body.append("Event: ").append(orDash(n.kind())).append('\n');
        body.append("Occurred at: ").append(n.occurredAt() == null ? "-" : n.occurredAt().toString()).append('\n');
        body.append("Correlation id: ").append(orDash(n.correlationId())).append('\n');
        body.append("Notification id: ").append(orDash(n.notificationId())).append('\n');
        return body.toString();
    }

    /**
     * Slack-compatible {@code mrkdwn}. Event data is escaped ({@code & < >}) so that a value such as
     * an agent name cannot turn into a link or an {@code <!channel>} mention.
     */
    public static String chatText(NotificationRequested n) {
        return chatText(n, ReviewLinks.pathsOnly());
    }

    /** As {@link #chatText(NotificationRequested)}, with how to review an approval request right after the text. */
    public static String chatText(NotificationRequested n, ReviewLinks links) {
        StringBuilder text = new StringBuilder();
        text.append('*').append(escapeChat(subject(n))).append('*');
        if (!isBlank(n.text())) {
            text.append('\n').append(escapeChat(n.text().strip()));
        }
        links.lines(n).forEach(line -> text.append('\n').append(escapeChat(line)));
        sortedDetails(n).forEach((key, value) ->
                text.append("\n• ").append(escapeChat(key)).append(": ").append(escapeChat(value)));
        text.append("\nWorkspace: ").append(escapeChat(orDash(n.workspaceId())));
        text.append("\nCorrelation id: ").append(escapeChat(orDash(n.correlationId())));
        return text.toString();
    }

    static String escapeChat(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static Map<String, String> sortedDetails(NotificationRequested n) {
        Map<String, String> sorted = new TreeMap<>();
        if (n.details() != null) {
            n.details().forEach((key, value) -> {
                if (key != null) {
                    sorted.put(key, value == null ? "" : value);
                }
            });
        }
        return sorted;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    private static String orDash(String value) {
        return isBlank(value) ? "-" : value;
    }
}
