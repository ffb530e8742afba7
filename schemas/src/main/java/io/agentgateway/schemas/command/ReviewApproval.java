package io.agentgateway.schemas.command;

import io.agentgateway.schemas.ReviewVerdict;

/**
 * An admin or owner approves or rejects a pending approval request. Only a pending request that has
 * not expired at the command's acceptedAt can be reviewed.
 *
 * @param reason the reviewer's comment, or null
 */
public record ReviewApproval(String approvalId, ReviewVerdict verdict, String reason) implements Command {}
