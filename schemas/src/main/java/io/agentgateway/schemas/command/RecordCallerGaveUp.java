package io.agentgateway.schemas.command;

import java.time.Instant;

/**
 * The caller of an evaluation never got its decision: the ingress answered it 503 or 504 (the publish failed or
 * timed out, or no reply came in time), it hung up before the answer (499), or the ingress process died before
 * answering (0, reported by the replica's next start from its in-flight journal): whatever the decision stream
 * decided for that attempt reached nobody. Sent by the ingress itself (a system actor), on the same commands
 * partition as the evaluation (same key), so it is decided after it. The stream then records the attempt's decision as undelivered
 * ({@code EvaluationUndelivered}) and ends the approval it opened while still pending; an attempt it never
 * saw, or already recorded as undelivered, leaves no trace. Nobody waits for its reply.
 *
 * @param evaluationCommandId  the command id of the evaluation the caller gave up on
 * @param evaluationAcceptedAt that attempt's {@code acceptedAt} (a retry with the same command id is another
 *                             attempt, with its own)
 * @param answeredStatus       the HTTP status the caller got: 503 or 504; 499 when it closed the connection first
 *                             (nginx's "client closed request"); 0 when nobody answered it (the ingress died)
 */
public record RecordCallerGaveUp(String evaluationCommandId, Instant evaluationAcceptedAt, int answeredStatus)
        implements Command {
    /** The ingress process died before it answered: the caller saw its connection drop. */
    public static final int NOT_ANSWERED = 0;
    /** The caller closed the connection before its answer (nginx's 499). */
    public static final int CLIENT_CLOSED_REQUEST = 499;
    public static final int SERVICE_UNAVAILABLE = 503;
    public static final int GATEWAY_TIMEOUT = 504;

    /** Whether {@code status} is one of the four above. */
    public static boolean isKnownStatus(int status) {
        return status == NOT_ANSWERED || status == CLIENT_CLOSED_REQUEST || status == SERVICE_UNAVAILABLE
                || status == GATEWAY_TIMEOUT;
    }
}
