package io.agentgateway.decision.handling;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.NotificationRequested;
import java.util.List;
import java.util.Objects;

/**
 * What a handler decided, before ids and versions are attached: the next state, the reply, and the
 * events and notifications to emit. A rejection carries the unchanged state and nothing to emit, so
 * a refused command leaves no trace but its reply.
 */
public record CommandResult(
        WorkspaceState state,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation,
        List<DomainEvent> events,
        List<NotificationRequested> notifications) {

    public CommandResult {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(status, "status");
        events = List.copyOf(events);
        notifications = List.copyOf(notifications);
    }

    public static CommandResult rejected(WorkspaceState unchanged, ReplyStatus status, String error) {
        return new CommandResult(unchanged, status, error, null, List.of(), List.of());
    }

    public static CommandResult invalid(WorkspaceState unchanged, String error) {
        return rejected(unchanged, ReplyStatus.INVALID, error);
    }

    public static CommandResult accepted(WorkspaceState next, DomainEvent... events) {
        return new CommandResult(next, ReplyStatus.OK, null, null, List.of(events), List.of());
    }

    public CommandResult withEvaluation(EvaluationOutcome outcome) {
        return new CommandResult(state, status, error, outcome, events, notifications);
    }

    public CommandResult withNotification(NotificationRequested notification) {
        return new CommandResult(state, status, error, evaluation, events, List.of(notification));
    }
}
