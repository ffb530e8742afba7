package io.agentgateway.decisionstream.local;

import io.agentgateway.decisionstream.topology.ReplyRoute;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.local.LocalReplyChannel;

/**
 * The reply route of a decision stream that shares its process with an ingress: a reply whose caller waits in
 * this process is handed over through the {@link LocalReplyChannel} once every record the stream thread's
 * producer was given up to it (this decision's events, notifications and state changes, and everything decided
 * before) is durable, and no reply record is written. Any other reply (another instance's caller, no tracker
 * for this thread) goes through Kafka as before. The decision itself is unchanged: still made on the stream
 * thread in log order.
 */
public final class InProcessReplies implements ReplyRoute {
    private final LocalReplyChannel channel;
    private final AckObservingClientSupplier clients;

    public InProcessReplies(LocalReplyChannel channel, AckObservingClientSupplier clients) {
        this.channel = channel;
        this.clients = clients;
    }

    @Override
    public boolean answeredInProcess(Reply reply) {
        LocalReplyChannel.Receiver receiver = channel.waitingFor(reply);
        if (receiver == null) {
            return false;
        }
        DurableSendTracker sends = clients.trackerOfCurrentThread();
        if (sends == null) {
            return false;
        }
        sends.afterSendsSoFar(() -> channel.deliver(receiver, reply));
        return true;
    }
}
