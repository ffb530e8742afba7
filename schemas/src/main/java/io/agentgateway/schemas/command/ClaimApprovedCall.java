package io.agentgateway.schemas.command;

/**
 * The approval executor asks for the right to run an approved call. Exactly one claim per approval is
 * ever granted, whoever asks and however often: that is what makes the run at-most-once across
 * executor replicas and redelivered events. Only the gateway itself (a system actor) may claim.
 * A claim is refused while the workspace's kill switch is on or the approval's tool is paused; the
 * approval then ends {@code cancelled} and never runs. A granted claim's reply carries the tool
 * connection the call must run with ({@code Reply.connection}, null: the workspace has none), as the
 * workspace holds it at the claim, in log order.
 *
 * @param executorId names the executor instance; only it may record the outcome
 */
public record ClaimApprovedCall(String approvalId, String executorId) implements Command {}
