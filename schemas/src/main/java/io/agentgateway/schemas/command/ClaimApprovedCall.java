package io.agentgateway.schemas.command;

/**
 * The approval executor asks for the right to run an approved call. Exactly one claim per approval is
 * ever granted, whoever asks and however often: that is what makes the run at-most-once across
 * executor replicas and redelivered events. Only the gateway itself (a system actor) may claim.
 *
 * @param executorId names the executor instance; only it may record the outcome
 */
public record ClaimApprovedCall(String approvalId, String executorId) implements Command {}
