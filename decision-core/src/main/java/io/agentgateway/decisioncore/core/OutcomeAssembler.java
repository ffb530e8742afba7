package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a handler's result into the records to emit: event ids derived from the command id and the
 * event's position, and the versions of the state after the command.
 */
final class OutcomeAssembler {
    private OutcomeAssembler() {}

    static Outcome assemble(CommandEnvelope envelope, CommandResult result, WorkspaceState after) {
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < result.events().size(); i++) {
            events.add(new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(envelope.commandId(), i),
                    envelope.workspaceId(), envelope.commandId(), envelope.correlationId(), envelope.acceptedAt(),
                    envelope.actor(), after.workspaceVersion(), after.policySetVersion(), result.events().get(i)));
        }
        return new Outcome(envelope.workspaceId(), result.status(), result.error(), result.evaluation(),
                events, result.notifications(), result.connection(), after.workspaceVersion(), result.approval());
    }
}
