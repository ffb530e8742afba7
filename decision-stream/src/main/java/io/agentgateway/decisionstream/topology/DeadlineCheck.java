package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.time.Instant;

/**
 * The caller's deadline (DESIGN.md, "Deadlines"). An evaluation decided after the envelope's deadline
 * reached nobody: the ingress that asked has answered 503/504 and will forward nothing. It is still
 * decided (the audit log shows what would have been answered), but recorded as undelivered: its
 * {@code ActionEvaluated} says so, no approval is opened and nobody is notified, the workspace state
 * is left as it was (the core's {@code CommandDecision.undelivered()}), and no reply is sent (so no late allow
 * can be taken as given, whatever the clocks).
 *
 * <p>The clock is the stream's wall clock when the command is decided, the one fact a replay of the
 * commands cannot know; so the recorded event is what carries it: the read models, a rebuild and the
 * back-test read {@code undelivered} from the event, and a redelivered command gets its stored outcome
 * (the processed-commands dedupe), never a second judgement of its lateness. Changes (kill switch,
 * policies, reviews) are applied whenever they are decided: applying a kill switch late is the safe side.
 *
 * <p>A retry with the same command id (an {@code Idempotency-Key}) gets the first outcome when that was
 * delivered. When the first one reached nobody and the retry is still awaited (its own deadline ahead),
 * the retry is decided afresh under an id derived from the first ({@link #retryCommandId}): a row of its
 * own that is delivered, beside the first, which says it reached nobody. Its outcome is then remembered
 * under the first id, so later retries get it. The late command itself redelivered (at-least-once after
 * a crash) is past its deadline still, and gets its stored outcome again: one row.
 *
 * <p>What this cannot see: a decision made in time whose reply is lost or delayed past the deadline on
 * its way back (a broker failing over the replies partition), or whose publish the ingress gave up on (503)
 * though it was written. The stream's clock says delivered; only the ingress knows its caller got 503/504.
 * So the ingress says it: a {@code RecordCallerGaveUp} for that attempt (command id and acceptedAt), on the
 * same partition, after the evaluation in the log. The {@code CommandProcessor} then looks the attempt up in
 * the processed commands, records its decision as undelivered after the fact ({@code EvaluationUndelivered},
 * the approval it opened ends while still pending) and replaces the stored outcome with its undelivered form,
 * so from then on it is treated as one decided late: a retry is decided afresh, a redelivery gets no reply.
 * A reply that reached the caller's ingress a moment after its 504 is marked all the same: the caller got 504.
 * Left unmarked: a report the ingress could not publish within its retry time (counted there), and an attempt
 * answered from an earlier one's stored outcome (a retry of a delivered decision: the first attempt's row is
 * the one its caller may have had).
 */
final class DeadlineCheck {
    private DeadlineCheck() {}

    /** Whether {@code envelope} is an evaluation whose caller stopped waiting before {@code nowMs}. */
    static boolean missed(CommandEnvelope envelope, long nowMs) {
        Instant deadline = envelope.deadline();
        return deadline != null && envelope.command() instanceof EvaluateAction && nowMs > deadline.toEpochMilli();
    }

    /** Whether a stored outcome is one that reached nobody. */
    static boolean undelivered(Outcome outcome) {
        return outcome.events().stream().anyMatch(e -> e.event() instanceof ActionEvaluated a && a.wasUndelivered());
    }

    /** Who is answered: nobody for an outcome that reached nobody (no reply to a late evaluation). */
    static CommandEnvelope recipient(CommandEnvelope envelope, Outcome outcome) {
        if (envelope == null || envelope.replyPartition() == null || !undelivered(outcome)) {
            return envelope;
        }
        return new CommandEnvelope(envelope.schemaVersion(), envelope.commandId(), envelope.workspaceId(),
                envelope.correlationId(), envelope.acceptedAt(), null, envelope.actor(), envelope.command(),
                envelope.deadline());
    }

    /** The id a retry of an undelivered command is decided under: derived, so a redelivery of the retry is deduplicated too. */
    static String retryCommandId(CommandEnvelope retry) {
        return retry.commandId() + "/retry/" + retry.acceptedAt();
    }
}
