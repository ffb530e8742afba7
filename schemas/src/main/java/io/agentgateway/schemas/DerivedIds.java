package io.agentgateway.schemas;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Ids that appear in responses and read models are derived from the command id, so a redelivered
 * command yields the same ids and a redelivered event upserts the same row (DESIGN.md "Idempotence").
 */
public final class DerivedIds {
    private DerivedIds() {}

    public static String auditLogId(String commandId) {
        return derive(commandId, "audit");
    }

    public static String approvalId(String commandId) {
        return derive(commandId, "approval");
    }

    public static String notificationId(String commandId) {
        return derive(commandId, "notification");
    }

    /** The {@code webhook_events} row of a ReceiveWebhook command. */
    public static String webhookEventId(String commandId) {
        return derive(commandId, "webhook");
    }

    /**
     * The command id under which the decision stream records its own expiry of an approval (no command
     * asked for it: the approval's time ran out). The same whichever sweep expires it, so a replay
     * yields the same ids.
     */
    public static String approvalExpiryId(String approvalId) {
        return derive(approvalId, "approval-expiry");
    }

    /**
     * The command id of the ingress's {@code RecordCallerGaveUp} for one attempt of an evaluation (its command id
     * and acceptedAt): the same however often it is sent, so the decision stream's dedupe sees one give-up.
     */
    public static String callerGaveUpId(String evaluationCommandId, java.time.Instant evaluationAcceptedAt) {
        return derive(evaluationCommandId + "@" + evaluationAcceptedAt, "caller-gave-up");
    }

    /** The id of the n-th event a command produced. */
    public static String eventId(String commandId, int index) {
        return derive(commandId, "event-" + index);
    }

    private static String derive(String commandId, String purpose) {
        return UUID.nameUUIDFromBytes((purpose + ":" + commandId).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
