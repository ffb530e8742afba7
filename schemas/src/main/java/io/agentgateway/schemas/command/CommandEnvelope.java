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
 * @param deadline        when the caller stops waiting (the ingress's reply timeout from acceptedAt), or
 *                        null when no one waits for an answer to act on it. An evaluation decided after it
 *                        reached nobody: it is recorded as undelivered, opens no approval and is not
 *                        answered (DESIGN.md, "Deadlines")
 */
public record CommandEnvelope(
        int schemaVersion,
        String commandId,
        String workspaceId,
        String correlationId,
        Instant acceptedAt,
        Integer replyPartition,
        Actor actor,
        Command command,
        Instant deadline) {

    public static final int CURRENT_VERSION = 1;

    /** Without a deadline (records written before deadlines, and commands nobody waits on). */
    public CommandEnvelope(int schemaVersion, String commandId, String workspaceId, String correlationId,
                           Instant acceptedAt, Integer replyPartition, Actor actor, Command command) {
        this(schemaVersion, commandId, workspaceId, correlationId, acceptedAt, replyPartition, actor, command, null);
    }

    /** The same command under another id (the decision stream's fresh decision of a retry, see {@code DeadlineCheck}). */
    public CommandEnvelope withCommandId(String id) {
        return new CommandEnvelope(schemaVersion, id, workspaceId, correlationId, acceptedAt, replyPartition, actor, command,
                deadline);
    }
}
