package io.agentgateway.notifier.channel;

import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.ArrayList;
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
        List<String[]> call = whatWillRun(n);
        if (!call.isEmpty()) {
            body.append("What will run (as the gateway holds it; secrets redacted, long parts cut):\n");
            for (String[] part : call) {
                if (part[1].contains("\n")) {
                    body.append("  ").append(part[0]).append(":\n");
                    part[1].lines().forEach(line -> body.append("    ").append(line).append('\n'));
                } else {
                    body.append("  ").append(part[0]).append(": ").append(part[1]).append('\n');
                }
            }
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
        List<String[]> call = whatWillRun(n);
        if (!call.isEmpty()) {
            text.append("\n*What will run* (secrets redacted, long parts cut):");
            for (String[] part : call) {
                // a multi-line part as a code block; a backtick in it cannot end the block early
                text.append(part[1].contains("\n")
                        ? "\n• " + escapeChat(part[0]) + ":\n```" + escapeChat(part[1]).replace('`', '\'') + "```"
                        : "\n• " + escapeChat(part[0]) + ": " + escapeChat(part[1]));
            }
        }
        sortedDetails(n).forEach((key, value) ->
                text.append("\n• ").append(escapeChat(key)).append(": ").append(escapeChat(value)));
        text.append("\nWorkspace: ").append(escapeChat(orDash(n.workspaceId())));
        text.append("\nCorrelation id: ").append(escapeChat(orDash(n.correlationId())));
        return text.toString();
    }

    static String escapeChat(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * What an approval's held call will do, so that the reviewer decides on it, as labelled parts in reading order: the
     * request line, the GraphQL operation, document and variables, the MCP tool and arguments, the body and the file it
     * writes, and the digest that binds the approval. Empty for other notifications and approvals without a view.
     */
    static List<String[]> whatWillRun(NotificationRequested n) {
        List<String[]> parts = new ArrayList<>();
        ApprovalRequestNotice.of(n).ifPresent(notice -> {
            CallView call = notice.call();
            if (call != null) {
                if (call.method() != null || call.path() != null) {
                    add(parts, "Request", (call.method() == null ? "" : call.method() + " ") + (call.path() == null ? "" : call.path())
                            + (call.query() == null ? "" : "?" + call.query()));
                }
                add(parts, "GraphQL operation", call.graphqlOperation());
                add(parts, "GraphQL document", call.graphqlDocument());
                add(parts, "GraphQL variables", call.graphqlVariables());
                add(parts, "MCP tool", call.mcpTool());
                add(parts, "MCP arguments", call.mcpArguments());
                add(parts, "Body" + (call.bodyBytes() == null ? "" : " (" + call.bodyBytes() + " bytes)"), call.bodyExcerpt());
                add(parts, "File content", call.fileContent());
                if (call.truncated()) {
                    add(parts, "Note", "parts were cut to the gateway's limit; the call runs in full");
                }
            }
            add(parts, "Call digest", notice.callDigest());
        });
        return parts;
    }

    private static void add(List<String[]> parts, String label, String value) {
        if (value != null && !value.isBlank()) {
            parts.add(new String[] {label, value});
        }
    }

    private static Map<String, String> sortedDetails(NotificationRequested n) {
        Map<String, String> sorted = new TreeMap<>();
        boolean approval = NotificationRequested.KIND_APPROVAL_REQUESTED.equals(n.kind());
        if (n.details() != null) {
            n.details().forEach((key, value) -> {
                // an approval's call is shown once, under "What will run"
                if (key != null && !(approval && key.startsWith("call"))) {
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
