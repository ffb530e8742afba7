package io.agentgateway.schemas.command;

import io.agentgateway.schemas.ReplyStatus;

/**
 * The decision stream's answer to a command whose envelope named a reply partition. Keyed by
 * {@code commandId}. {@code evaluation} is set for an {@link EvaluateAction} answered {@code ok};
 * {@code error} says why for every other status. {@code replyPartition} repeats the envelope's, so
 * the decision stream's partitioner routes the reply to the instance that waits for it.
 */
public record Reply(
        int schemaVersion,
        String commandId,
        String correlationId,
        String workspaceId,
        int replyPartition,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation) {

    public static final int CURRENT_VERSION = 1;
}
