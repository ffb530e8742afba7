package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import java.util.Objects;

/**
 * What a handler decided, before ids and versions are attached: the next state, the reply, and the
 * events and notifications to emit. A rejection carries the unchanged state and nothing to emit, so
 * a refused command leaves no trace but its reply.
 *
 * @param connection the connection the reply carries (a stale answer's current one, a claim's), or null
 * @param approval   the open approval a {@code check_access} asked for, or null
 */
public record CommandResult(
        WorkspaceState state,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation,
        List<DomainEvent> events,
        List<NotificationRequested> notifications,
        ToolConnection connection,
        ApprovalSnapshot approval) {

    public CommandResult(WorkspaceState state, ReplyStatus status, String error, EvaluationOutcome evaluation,
                         List<DomainEvent> events, List<NotificationRequested> notifications) {
        this(state, status, error, evaluation, events, notifications, null, null);
    }

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

    /**
     * Nothing decided: the command named a connection version that is not the current one. The reply
     * carries the current connection (null: none) for the entry point to adopt.
     */
    public static CommandResult stale(WorkspaceState unchanged, String error, ToolConnection current) {
        return new CommandResult(unchanged, ReplyStatus.STALE, error, null, List.of(), List.of(), current, null);
    }

    public CommandResult withEvaluation(EvaluationOutcome outcome) {
        return new CommandResult(state, status, error, outcome, events, notifications, connection, approval);
    }

    public CommandResult withNotification(NotificationRequested notification) {
        return new CommandResult(state, status, error, evaluation, events, List.of(notification), connection, approval);
    }

    public CommandResult withConnection(ToolConnection carried) {
        return new CommandResult(state, status, error, evaluation, events, notifications, carried, approval);
    }

    public CommandResult withApproval(ApprovalSnapshot snapshot) {
        return new CommandResult(state, status, error, evaluation, events, notifications, connection, snapshot);
    }
}
