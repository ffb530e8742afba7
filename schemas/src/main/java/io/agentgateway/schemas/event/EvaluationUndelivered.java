package io.agentgateway.schemas.event;

/**
 * An evaluation decided in time whose answer reached nobody all the same: its caller was answered 503/504
 * by the ingress (the reply came too late, or the publish was given up on though the record was written), hung
 * up before the answer, or lost its connection when the ingress died ({@code RecordCallerGaveUp}).
 * Its audit entry ({@code auditLogId}) is from now on undelivered, as if it had been decided after the
 * deadline: no allow was taken as given. Emitted once per attempt, after the {@code ActionEvaluated} it marks.
 *
 * @param auditLogId          the audit entry of the evaluation
 * @param evaluationCommandId the evaluation's command id (for a retry decided afresh, the id it was decided under)
 * @param approvalId          the approval the evaluation opened when it was still pending and ended here
 *                            (an {@code ApprovalExpired} follows), else null
 * @param answeredStatus      what the caller got instead: 503 or 504, 499 (it hung up first), 0 (the ingress died)
 */
public record EvaluationUndelivered(String auditLogId, String evaluationCommandId, String approvalId, int answeredStatus)
        implements DomainEvent {}
