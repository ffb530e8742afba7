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
 * @param seal              how the event was sealed into the workspace's Merkle log when it is one of its entries,
 *                          else null (and in every record from before the log)
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
        DomainEvent event,
        EvidenceSeal seal) {

    public static final int CURRENT_VERSION = 1;

    /** An envelope not sealed into the Merkle log (the form before it). */
    public EventEnvelope(int schemaVersion, String eventId, String workspaceId, String commandId, String correlationId,
                         Instant occurredAt, Actor actor, long workspaceVersion, long policySetVersion, DomainEvent event) {
        this(schemaVersion, eventId, workspaceId, commandId, correlationId, occurredAt, actor, workspaceVersion,
                policySetVersion, event, null);
    }

    /** This envelope with its seal. */
    public EventEnvelope withSeal(EvidenceSeal seal) {
        return new EventEnvelope(schemaVersion, eventId, workspaceId, commandId, correlationId, occurredAt, actor,
                workspaceVersion, policySetVersion, event, seal);
    }
}
