package io.agentgateway.schemas.command;

import java.time.Instant;

/**
 * The ingress answered the caller of an evaluation 503 or 504 (the publish failed or timed out, or no reply
 * came in time): whatever the decision stream decided for that attempt reached nobody. Sent by the ingress
 * itself (a system actor) right after that answer, on the same commands partition as the evaluation (same
 * key), so it is decided after it. The stream then records the attempt's decision as undelivered
 * ({@code EvaluationUndelivered}) and ends the approval it opened while still pending; an attempt it never
 * saw, or already recorded as undelivered, leaves no trace. Nobody waits for its reply.
 *
 * @param evaluationCommandId  the command id of the evaluation the caller gave up on
 * @param evaluationAcceptedAt that attempt's {@code acceptedAt} (a retry with the same command id is another
 *                             attempt, with its own)
 * @param answeredStatus       the HTTP status the caller got: 503 or 504
 */
public record RecordCallerGaveUp(String evaluationCommandId, Instant evaluationAcceptedAt, int answeredStatus)
        implements Command {}
