package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Actor;
import java.time.Instant;

/**
 * One record on the commands topic, keyed by {@code workspaceId} so that every workspace has one
 * total order.
 *
 * @param schemaVersion   contract version of this envelope, 1
 * @param commandId       unique id chosen by the ingress; the idempotence key and the seed of every
 *                        id derived from this command (audit log id, approval id)
 * @param acceptedAt      when the ingress accepted it; the stream uses this, never its own clock, for
 *                        expiry checks so that a replay reproduces every decision
 * @param replyPartition  the reply-topic partition of the waiting ingress instance, or null when
 *                        nobody waits
 */
public record CommandEnvelope(
        int schemaVersion,
        String commandId,
        String workspaceId,
        String correlationId,
        Instant acceptedAt,
        Integer replyPartition,
        Actor actor,
        Command command) {

    public static final int CURRENT_VERSION = 1;
}
