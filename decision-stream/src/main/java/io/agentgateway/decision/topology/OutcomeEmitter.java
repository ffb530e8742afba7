package io.agentgateway.decision.topology;

import io.agentgateway.decision.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import io.agentgateway.schemas.event.NotificationRequested;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Forwards an outcome to the sinks: events and notifications first, the reply last, so that a caller
 * holding its reply was never answered ahead of the records that explain it. A reply whose caller waits in
 * this process is handed to the {@link ReplyRoute} instead, after everything else was sent. Each event carries its
 * type in a header ({@link EventTypeHeader}) for the consumers that want only one kind.
 */
final class OutcomeEmitter {
    private final ProcessorContext<String, Object> context;
    private final ReplyRoute replies;

    OutcomeEmitter(ProcessorContext<String, Object> context, ReplyRoute replies) {
        this.context = context;
        this.replies = replies;
    }

    void emit(CommandEnvelope envelope, Outcome outcome, long timestamp) {
        for (EventEnvelope event : outcome.events()) {
            emitEvent(event, timestamp);
        }
        for (NotificationRequested notification : outcome.notifications()) {
            context.forward(new Record<String, Object>(notification.workspaceId(), notification, timestamp),
                    DecisionTopology.NOTIFICATIONS_SINK);
        }
        Reply reply = outcome.replyTo(envelope);
        if (reply != null && !replies.answeredInProcess(reply)) {
            context.forward(new Record<String, Object>(reply.commandId(), reply, timestamp), DecisionTopology.REPLIES_SINK);
        }
    }

    /** An event of no command (the expiry sweep's). */
    void emitEvent(EventEnvelope event, long timestamp) {
        context.forward(new Record<String, Object>(event.workspaceId(), event, timestamp,
                EventTypeHeader.of(event.event())), DecisionTopology.EVENTS_SINK);
    }
}
