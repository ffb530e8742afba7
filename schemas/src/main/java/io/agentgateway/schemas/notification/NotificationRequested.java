package io.agentgateway.schemas.notification;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A notification to deliver, on the notifications topic keyed by workspace id. Self-contained so the
 * notifier needs no state of its own: recipients and the sealed chat webhook URL are resolved by the
 * decision stream at the moment of the event. {@code notificationId} is deterministic (the notifier
 * delivers each id at most once per channel).
 *
 * @param kind      {@code kill_switch} (spec 6) or {@code approval_requested} (a pending approval waits for a
 *                  reviewer; its details are the keys of {@link ApprovalRequestNotice})
 * @param details   flat string facts for the message body and the chat payload (action, tool, actor...)
 */
public record NotificationRequested(
        int schemaVersion,
        String notificationId,
        String workspaceId,
        String correlationId,
        String kind,
        Instant occurredAt,
        String subject,
        String text,
        List<String> emailTo,
        String sealedChatWebhookUrl,
        Map<String, String> details) {

    public static final int CURRENT_VERSION = 1;
    public static final String KIND_KILL_SWITCH = "kill_switch";
    public static final String KIND_APPROVAL_REQUESTED = "approval_requested";
}
