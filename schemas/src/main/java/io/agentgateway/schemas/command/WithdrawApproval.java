package io.agentgateway.schemas.command;

/**
 * The agent that asked for a call withdraws its own pending approval request (an MCP client's
 * {@code tasks/cancel}): the actor is the API key whose evaluation opened the approval, and no other key
 * may withdraw it. Only a pending request that has not expired at the command's acceptedAt can be
 * withdrawn; the call it holds never runs.
 *
 * @param reason why, as the agent's side says it (shown to reviewers), or null
 */
public record WithdrawApproval(String approvalId, String reason) implements Command {}
