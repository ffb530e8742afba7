package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Actor;
import java.time.Instant;

/**
 * One record on the events topic, keyed by {@code workspaceId}.
 *
 * @param eventId           deterministic from the command id and the event's position in the
 *                          command's outcome, so a redelivered command yields the same ids and the
 *                          projector's upserts make it a no-op
 * @param occurredAt        the command's acceptedAt
 * @param workspaceVersion  the workspace state version after this command (counts every state change)
 * @param policySetVersion  the version of the policies and defaults in force for this command
 */
public record EventEnvelope(
        int schemaVersion,
        String eventId,
        String workspaceId,
        String commandId,
        String correlationId,
        Instant occurredAt,
        Actor actor,
        long workspaceVersion,
        long policySetVersion,
        DomainEvent event) {

    public static final int CURRENT_VERSION = 1;
}
