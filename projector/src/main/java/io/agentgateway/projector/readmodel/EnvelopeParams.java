package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.event.EventEnvelope;

/** The arguments every projection of an event shares, taken from its envelope. */
final class EnvelopeParams {
    private EnvelopeParams() {}

    static SqlParams of(EventEnvelope envelope) {
        return new SqlParams()
                .uuid("workspace_id", envelope.workspaceId())
                .uuid("event_id", envelope.eventId())
                .text("command_id", envelope.commandId())
                .text("correlation_id", envelope.correlationId())
                .timestamp("occurred_at", envelope.occurredAt())
                .bigint("workspace_version", envelope.workspaceVersion())
                .bigint("policy_set_version", envelope.policySetVersion())
                .text("actor_user_id", actorUserId(envelope));
    }

    /** Only a person has a user id; API keys and system actors are not users. */
    private static String actorUserId(EventEnvelope envelope) {
        return envelope.actor() != null && envelope.actor().kind() == ActorKind.USER ? envelope.actor().userId() : null;
    }
}
