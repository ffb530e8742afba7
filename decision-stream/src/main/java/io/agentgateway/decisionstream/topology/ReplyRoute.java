package io.agentgateway.decisionstream.topology;

import io.agentgateway.schemas.command.Reply;

/**
 * Where a reply goes: through {@code gateway.replies.v1} (the default, {@link #KAFKA}) or straight to a caller
 * waiting in the same process ({@code io.agentgateway.decisionstream.local.InProcessReplies}), which then takes it
 * and hands it over once everything the decision wrote is durable. Asked on the stream thread after the
 * decision's events, notifications and state changes were sent, just before its reply would be.
 */
@FunctionalInterface
public interface ReplyRoute {
    /** Every reply as a record on the replies topic. */
    ReplyRoute KAFKA = reply -> false;

    /** True when the reply was taken for a caller in this process: no reply record is written. */
    boolean answeredInProcess(Reply reply);
}
