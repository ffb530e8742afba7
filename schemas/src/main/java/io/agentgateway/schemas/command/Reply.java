package io.agentgateway.schemas.command;

import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ToolConnection;

/**
 * The decision stream's answer to a command whose envelope named a reply partition. Keyed by
 * {@code commandId}. {@code evaluation} is set for an {@link EvaluateAction} answered {@code ok};
 * {@code error} says why for every other status. {@code replyPartition} repeats the envelope's, so
 * the decision stream's partitioner routes the reply to the instance that waits for it.
 *
 * @param connection       the workspace's current connection to the command's tool, sealed: on a
 *                         {@code stale} reply (null there: it has none) and on a granted
 *                         {@link ClaimApprovedCall} (the connection the held call runs with)
 * @param workspaceVersion the workspace version the command was decided under (after its own change,
 *                         if it made one); null on replies from before it was recorded, and when the
 *                         envelope could not be read. Tells apart an older answer from a newer one
 * @param approval         on a {@link CheckAccess} reply, the approval it asked for while the workspace holds it
 */
public record Reply(
        int schemaVersion,
        String commandId,
        String correlationId,
        String workspaceId,
        int replyPartition,
        ReplyStatus status,
        String error,
        EvaluationOutcome evaluation,
        ToolConnection connection,
        Long workspaceVersion,
        ApprovalSnapshot approval) {

    public static final int CURRENT_VERSION = 1;

    /** A reply without a connection, a version or an approval. */
    public Reply(int schemaVersion, String commandId, String correlationId, String workspaceId, int replyPartition,
                 ReplyStatus status, String error, EvaluationOutcome evaluation) {
        this(schemaVersion, commandId, correlationId, workspaceId, replyPartition, status, error, evaluation, null, null, null);
    }
}
