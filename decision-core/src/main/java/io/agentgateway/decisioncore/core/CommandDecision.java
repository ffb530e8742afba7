package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;

/**
 * What {@link DecisionCore#decide} decided for one command: the answer, the events and notifications, and
 * the workspace state after it ({@link #state()}, before the store gives it its versions). A refused command
 * carries the state unchanged and nothing to emit, so it leaves no trace but its answer.
 */
public final class CommandDecision {
    private final CommandEnvelope envelope;
    private final WorkspaceState before;
    private final CommandResult result;

    CommandDecision(CommandEnvelope envelope, WorkspaceState before, CommandResult result) {
        this.envelope = envelope;
        this.before = before;
        this.result = result;
    }

    /** The state after the command, as decided (the same object as before it when nothing changed). */
    public WorkspaceState state() {
        return result.state();
    }

    public ReplyStatus status() {
        return result.status();
    }

    /** The refusal's message, or null. */
    public String error() {
        return result.error();
    }

    /** The evaluation the reply carries (evaluations, webhooks), or null. */
    public EvaluationOutcome evaluation() {
        return result.evaluation();
    }

    /** The domain events, in order, without their envelopes. */
    public List<DomainEvent> events() {
        return result.events();
    }

    public List<NotificationRequested> notifications() {
        return result.notifications();
    }

    /** The connection the reply carries (a stale answer's current one, a claim's), or null. */
    public ToolConnection connection() {
        return result.connection();
    }

    /** The open approval a {@code check_access} asked for, or null. */
    public ApprovalSnapshot approval() {
        return result.approval();
    }

    /**
     * This decision as recorded when nobody receives it (a caller's deadline passed, DESIGN.md "Deadlines"): the
     * audit entry only, marked undelivered, no approval opened, nobody notified, and no state change. A refusal
     * stays as it is.
     */
    public CommandDecision undelivered() {
        if (result.status() != ReplyStatus.OK) {
            return this;
        }
        List<DomainEvent> recorded = result.events().stream()
                .filter(ActionEvaluated.class::isInstance)
                .map(e -> (DomainEvent) ((ActionEvaluated) e).asUndelivered())
                .toList();
        return new CommandDecision(envelope, before, new CommandResult(before, result.status(), result.error(),
                result.evaluation(), recorded, List.of()));
    }

    /**
     * The records to emit: event envelopes with ids derived from the command id and each event's position, and
     * the versions of {@code after}, the state as the store kept it (its versions bumped when anything changed).
     */
    public Outcome outcome(WorkspaceState after) {
        return OutcomeAssembler.assemble(envelope, result, after);
    }
}
