package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.event.DomainEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An evaluation's caller never got its decision ({@link RecordCallerGaveUp}: answered 503/504, hung up first, or its
 * ingress died): the decision recorded for that attempt reached nobody, though it was made in time. Given that decision's audit entry (the topology finds
 * it in its processed commands), this records it as undelivered ({@link EvaluationUndelivered}) and ends the
 * approval it opened if nobody reviewed it yet ({@link ApprovalExpired}: it can no longer be approved, and the
 * notifier, which ignores approval endings, tells nobody again). An approval already reviewed stays as it is: a
 * person decided on it, and an approved call may be claimed or have run; the audit entry is marked all the same,
 * since its caller never heard the answer.
 *
 * <p>No decision found (the evaluation never reached the log, or the attempt was answered from an earlier one),
 * or one already undelivered: nothing happens, so a second give-up for the same attempt leaves no trace.
 */
final class CallerGaveUpHandler implements CommandHandler<RecordCallerGaveUp> {
    /** Without the recorded decision (nothing looked it up): nothing to mark. */
    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RecordCallerGaveUp command) {
        return handle(envelope, state, command, null, null);
    }

    /**
     * @param recorded      the audit entry decided for the attempt given up on, or null when there is none
     * @param recordedUnder the command id it was decided under (a retry decided afresh has a derived one)
     */
    CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RecordCallerGaveUp command, ActionEvaluated recorded,
                         String recordedUnder) {
        if (Validation.blank(command.evaluationCommandId()) || command.evaluationAcceptedAt() == null) {
            return CommandResult.invalid(state, "evaluationCommandId and evaluationAcceptedAt are required");
        }
        if (!RecordCallerGaveUp.isKnownStatus(command.answeredStatus())) {
            return CommandResult.invalid(state, "answeredStatus must be 503, 504, 499 or 0");
        }
        if (recorded == null || recorded.wasUndelivered()) {
            return CommandResult.accepted(state);
        }
        ActionEvaluated audit = recorded;
        Optional<String> pending = Optional.ofNullable(audit.approvalRequestId())
                .filter(id -> state.approval(id).map(PendingApproval::status).orElse(null) == ApprovalStatus.PENDING);
        List<DomainEvent> events = new ArrayList<>();
        events.add(new EvaluationUndelivered(audit.auditLogId(),
                recordedUnder == null ? command.evaluationCommandId() : recordedUnder, pending.orElse(null),
                command.answeredStatus()));
        WorkspaceState next = state;
        if (pending.isPresent()) {
            // ended now, in log order: a review after this finds no approval
            events.add(new ApprovalExpired(pending.get(), envelope.acceptedAt()));
            next = state.withoutApproval(pending.get());
        }
        return new CommandResult(next, ReplyStatus.OK, null, null, events, List.of());
    }
}
