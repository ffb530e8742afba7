package io.agentgateway.decisionstream.topology;

import io.agentgateway.classification.PayloadExcerpt;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EvidenceSeal;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.WebhookReceived;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What {@code processed-commands} keeps of an {@link Outcome}: exactly what a redelivery of the same
 * command needs to emit the same records again (same event ids, same decision, same notifications), and
 * nothing it can derive again from the redelivered command itself.
 *
 * <p>Left out and rebuilt from the command on {@link #restore}:
 * <ul>
 *   <li>each event's envelope: its id is {@code DerivedIds.eventId(commandId, i)}; workspace, command id,
 *       acceptedAt and actor are the command's; only the versions (one pair per command) are kept;</li>
 *   <li>payload excerpts ({@code ActionEvaluated}, {@code WebhookReceived}): a function of the command's
 *       payload and the excerpt limit, which is kept;</li>
 *   <li>the sealed held call and the call view of {@code ApprovalRequested}: the command's own;</li>
 *   <li>the evaluation of the reply: the fields of the command's {@code ActionEvaluated}.</li>
 * </ul>
 * Under at-least-once a redelivered command may find its first attempt's state change in the changelog
 * and its events never written; re-emitting from this record writes them, with the ids the first
 * attempt used. An allowed evaluation is stored in about 500 bytes instead of its full outcome (up to
 * ~5 KB with a full payload excerpt).
 *
 * @param evaluation           the reply's evaluation when it is not the first {@code ActionEvaluated}'s
 * @param evaluationFromAudit  the reply's evaluation is read from the first {@code ActionEvaluated}
 * @param correlationId        the first attempt's (a retry of the command id may come with another one)
 * @param events               in order, without payload excerpts and held calls
 * @param excerptBytes         the payload excerpt limit the events were made with
 * @param connection           the connection the reply carried (stale answers, claims), or null
 * @param replyWorkspaceVersion the workspace version the reply named, or null
 * @param approval             the approval the reply carried ({@code check_access}), or null
 * @param decidedCommandId     the id the events were derived from when it is not the command's own (a retry
 *                             decided afresh under a derived id, filed under the id retried), else null
 * @param decidedAt            that decision's acceptedAt, with {@code decidedCommandId}
 * @param seals                each event's seal into the workspace's Merkle log, by position (null: not an entry),
 *                             or null when none is (a redelivery re-emits the same seals: they cannot be derived again,
 *                             the log has moved on)
 * @param evidenceLog          the workspace's Merkle log as this outcome's seals left it ({@code EvidenceLog}'s encoding,
 *                             base64), or null when it sealed nothing: this record, written for every decision anyway,
 *                             is where the log's latest state is durable at once, while the {@code evidence-log} store
 *                             is written back only at commits ({@link EvidenceLogs#catchUp})
 */
public record StoredOutcome(
        String workspaceId,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation,
        boolean evaluationFromAudit,
        String correlationId,
        long workspaceVersion,
        long policySetVersion,
        List<DomainEvent> events,
        List<NotificationRequested> notifications,
        int excerptBytes,
        ToolConnection connection,
        Long replyWorkspaceVersion,
        ApprovalSnapshot approval,
        String decidedCommandId,
        Instant decidedAt,
        List<EvidenceSeal> seals,
        String evidenceLog) {

    public StoredOutcome {
        Objects.requireNonNull(status, "status");
        events = events == null ? List.of() : List.copyOf(events);
        notifications = notifications == null ? List.of() : List.copyOf(notifications);
        // positions matter and most are null: not List.copyOf
        seals = seals == null ? null : Collections.unmodifiableList(new ArrayList<>(seals));
    }

    /** Without seals (the form before the Merkle log). */
    public StoredOutcome(String workspaceId, ReplyStatus status, String error, EvaluationOutcome evaluation,
                         boolean evaluationFromAudit, String correlationId, long workspaceVersion, long policySetVersion,
                         List<DomainEvent> events, List<NotificationRequested> notifications, int excerptBytes,
                         ToolConnection connection, Long replyWorkspaceVersion, ApprovalSnapshot approval,
                         String decidedCommandId, Instant decidedAt) {
        this(workspaceId, status, error, evaluation, evaluationFromAudit, correlationId, workspaceVersion, policySetVersion,
                events, notifications, excerptBytes, connection, replyWorkspaceVersion, approval, decidedCommandId, decidedAt,
                null, null);
    }

    /** The compact form of {@code outcome}, decided for {@code envelope} with {@code excerptBytes} as the limit. */
    public static StoredOutcome of(CommandEnvelope envelope, Outcome outcome, int excerptBytes) {
        return of(envelope, outcome, excerptBytes, null);
    }

    /** ... and {@code evidenceLog}, the workspace's log as {@code outcome}'s seals left it (null: none). */
    public static StoredOutcome of(CommandEnvelope envelope, Outcome outcome, int excerptBytes, byte[] evidenceLog) {
        List<DomainEvent> events = new ArrayList<>(outcome.events().size());
        List<EvidenceSeal> seals = null;
        long workspaceVersion = 0;
        long policySetVersion = 0;
        for (EventEnvelope event : outcome.events()) {
            workspaceVersion = event.workspaceVersion();
            policySetVersion = event.policySetVersion();
            events.add(withoutDerivable(event.event()));
            if (event.seal() != null) {
                if (seals == null) {
                    seals = new ArrayList<>(Collections.nCopies(outcome.events().size(), (EvidenceSeal) null));
                }
                seals.set(events.size() - 1, event.seal());
            }
        }
        boolean fromAudit = outcome.evaluation() != null && !events.isEmpty()
                && outcome.events().get(0).event() instanceof ActionEvaluated audit
                && outcome.evaluation().equals(evaluationOf(audit));
        return new StoredOutcome(outcome.workspaceId(), outcome.status(), outcome.error(),
                fromAudit ? null : outcome.evaluation(), fromAudit, envelope.correlationId(), workspaceVersion,
                policySetVersion, events, outcome.notifications(), excerptBytes, outcome.connection(),
                outcome.workspaceVersion(), outcome.approval(), null, null, seals,
                evidenceLog == null ? null : Base64.getEncoder().encodeToString(evidenceLog));
    }

    /** This outcome filed under another command id than the one it was decided as ({@code decided}'s). */
    public StoredOutcome decidedAs(CommandEnvelope decided) {
        return new StoredOutcome(workspaceId, status, error, evaluation, evaluationFromAudit, correlationId,
                workspaceVersion, policySetVersion, events, notifications, excerptBytes, connection, replyWorkspaceVersion,
                approval, decided.commandId(), decided.acceptedAt(), seals, evidenceLog);
    }

    /**
     * This outcome as recorded once its caller is known to have given up ({@code RecordCallerGaveUp}): what
     * {@code CommandDecision.undelivered()} makes of a decision made after the deadline, the audit entry only, marked
     * undelivered, at its first position (so with its first event id), no notifications. A redelivery of the command
     * then emits that, and a retry of the command id is decided afresh ({@code DeadlineCheck}).
     */
    public StoredOutcome undelivered() {
        List<DomainEvent> recorded = new ArrayList<>(1);
        List<EvidenceSeal> recordedSeals = null;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof ActionEvaluated evaluated) {
                recorded.add(evaluated.asUndelivered());
                if (seals != null && seals.get(i) != null) {
                    // the entry as it was sealed: its later undelivered mark is an entry of its own (evaluation_undelivered)
                    recordedSeals = new ArrayList<>(Collections.nCopies(recorded.size(), (EvidenceSeal) null));
                    recordedSeals.set(recorded.size() - 1, seals.get(i));
                }
            }
        }
        return new StoredOutcome(workspaceId, status, error, evaluation, evaluationFromAudit, correlationId,
                workspaceVersion, policySetVersion, recorded, List.of(), excerptBytes, connection, replyWorkspaceVersion,
                approval, decidedCommandId, decidedAt, recordedSeals, evidenceLog);
    }

    /** The workspace's Merkle log as this outcome's seals left it ({@link #evidenceLog}), or null. */
    public byte[] evidenceLogBytes() {
        return evidenceLog == null ? null : Base64.getDecoder().decode(evidenceLog);
    }

    /** The audit entry of an evaluation's outcome (its first event), as stored: without its payload excerpt. */
    public Optional<ActionEvaluated> audit() {
        return !events.isEmpty() && events.get(0) instanceof ActionEvaluated audit
                ? Optional.of(audit) : Optional.empty();
    }

    /** The outcome as first emitted, rebuilt for the redelivered {@code envelope} (the same command). */
    public Outcome restore(CommandEnvelope envelope) {
        Command command = envelope.command();
        String commandId = decidedCommandId == null ? envelope.commandId() : decidedCommandId;
        Instant acceptedAt = decidedAt == null ? envelope.acceptedAt() : decidedAt;
        List<EventEnvelope> restored = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            restored.add(new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(commandId, i),
                    workspaceId, commandId, correlationId, acceptedAt, envelope.actor(),
                    workspaceVersion, policySetVersion, withDerived(events.get(i), command),
                    seals == null || i >= seals.size() ? null : seals.get(i)));
        }
        EvaluationOutcome reply = evaluationFromAudit && !events.isEmpty() && events.get(0) instanceof ActionEvaluated audit
                ? evaluationOf(audit)
                : evaluation;
        return new Outcome(workspaceId, status, error, reply, restored, notifications, connection, replyWorkspaceVersion,
                approval);
    }

    private static DomainEvent withoutDerivable(DomainEvent event) {
        if (event instanceof ActionEvaluated evaluated) {
            return evaluated.withPayloadExcerpt(null, false, 0);
        }
        if (event instanceof WebhookReceived received) {
            return received.withPayloadExcerpt(null, false, 0);
        }
        if (event instanceof ApprovalRequested requested && (requested.heldCall() != null || requested.callView() != null)) {
            return requested.withHeldCall(null).withCallView(null);
        }
        return event;
    }

    private DomainEvent withDerived(DomainEvent event, Command command) {
        if (event instanceof ActionEvaluated evaluated) {
            PayloadExcerpt excerpt = PayloadExcerpt.of(payloadOf(command), excerptBytes);
            return evaluated.withPayloadExcerpt(excerpt.text(), excerpt.truncated(), excerpt.fullBytes());
        }
        if (event instanceof WebhookReceived received) {
            PayloadExcerpt excerpt = command instanceof ReceiveWebhook webhook
                    ? PayloadExcerpt.ofWebhook(webhook, excerptBytes) : PayloadExcerpt.of(payloadOf(command), excerptBytes);
            return received.withPayloadExcerpt(excerpt.text(), excerpt.truncated(), excerpt.fullBytes());
        }
        if (event instanceof ApprovalRequested requested && command instanceof EvaluateAction evaluate
                && (evaluate.heldCall() != null || evaluate.callView() != null)) {
            return requested.withHeldCall(evaluate.heldCall()).withCallView(evaluate.callView());
        }
        return event;
    }

    private static JsonNode payloadOf(Command command) {
        if (command instanceof EvaluateAction evaluate) {
            return evaluate.payload();
        }
        if (command instanceof ReceiveWebhook webhook) {
            return webhook.payload();
        }
        return null;
    }

    private static EvaluationOutcome evaluationOf(ActionEvaluated audit) {
        return new EvaluationOutcome(audit.decision(), audit.reason(), audit.matchedPolicyId(), audit.approvalRequestId(),
                audit.auditLogId(), audit.riskLevel(), audit.riskClassification());
    }
}
