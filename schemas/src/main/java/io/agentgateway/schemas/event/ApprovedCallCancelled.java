package io.agentgateway.schemas.event;

import java.time.Instant;

/**
 * An approved call that was not run, and never will be: when the gateway claimed it, the workspace's
 * kill switch was on or the call's tool was paused ({@code reason} says which). The approval ends here;
 * lifting the switch does not bring it back (the agent asks again).
 */
public record ApprovedCallCancelled(String approvalId, String reason, Instant cancelledAt) implements DomainEvent {}
