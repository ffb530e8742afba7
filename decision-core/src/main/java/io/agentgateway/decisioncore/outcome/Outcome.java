package io.agentgateway.decisioncore.outcome;

import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import java.util.Objects;

/**
 * Everything one command produced: the answer (status, error, evaluation), the event envelopes and the
 * notifications, exactly as emitted. Stored per command id in {@code processed-commands} so that a
 * redelivered command re-emits the same records (same ids, same decision) instead of being decided a
 * second time.
 *
 * <p>The answer is kept without its address: {@link #replyTo} addresses it to the envelope at hand.
 * For a true redelivery that is the same reply partition; for a retry of the same command id from
 * another ingress instance it is the instance that waits now.
 *
 * @param connection       the connection the reply carries (stale answers, claims), or null
 * @param workspaceVersion the version of the state the command was decided under (after its change); null
 *                         for an envelope refused before it reached a workspace, and in outcomes stored before
 * @param approval         the open approval a {@code check_access} asked for, or null
 */
public record Outcome(
        String workspaceId,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation,
        List<EventEnvelope> events,
        List<NotificationRequested> notifications,
        ToolConnection connection,
        Long workspaceVersion,
        ApprovalSnapshot approval) {

    public Outcome(String workspaceId, ReplyStatus status, String error, EvaluationOutcome evaluation,
                   List<EventEnvelope> events, List<NotificationRequested> notifications) {
        this(workspaceId, status, error, evaluation, events, notifications, null, null, null);
    }

    public Outcome {
        Objects.requireNonNull(status, "status");
        events = events == null ? List.of() : List.copyOf(events);
        notifications = notifications == null ? List.of() : List.copyOf(notifications);
    }

    /** An answer with nothing else emitted. */
    public static Outcome rejected(String workspaceId, ReplyStatus status, String error) {
        return new Outcome(workspaceId, status, error, null, List.of(), List.of());
    }

    /** The reply for the caller waiting on {@code envelope}, or null when nobody waits. */
    public Reply replyTo(CommandEnvelope envelope) {
        if (envelope == null || envelope.replyPartition() == null) {
            return null;
        }
        return new Reply(Reply.CURRENT_VERSION, envelope.commandId(), envelope.correlationId(), envelope.workspaceId(),
                envelope.replyPartition(), status, error, evaluation, connection, workspaceVersion, approval);
    }
}
