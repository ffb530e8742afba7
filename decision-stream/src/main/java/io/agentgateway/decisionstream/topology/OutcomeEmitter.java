package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.kafka.EventTypeHeader;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Forwards an outcome to the sinks: events and notifications first, the reply last, so that a caller
 * holding its reply was never answered ahead of the records that explain it. A reply whose caller waits in
 * this process is handed to the {@link ReplyRoute} instead, after everything else was sent. Each event carries its
 * type in a header ({@link EventTypeHeader}) for the consumers that want only one kind.
 *
 * <p>While a command is decided in a span ({@link #tracedBy}), every record it emits carries that span's
 * {@code traceparent}, and the span gets what was decided; otherwise no header is added.
 */
final class OutcomeEmitter {
    private final ProcessorContext<String, Object> context;
    private final ReplyRoute replies;
    private Span span;
    /** The span's trace context as the records' headers carry it, made once per traced command. */
    private Headers trace;

    OutcomeEmitter(ProcessorContext<String, Object> context, ReplyRoute replies) {
        this.context = context;
        this.replies = replies;
    }

    /** The span the coming records belong to; null: none (tracing off, or the punctuator's sweep). */
    void tracedBy(Span span) {
        this.span = span;
        this.trace = span == null ? null : TraceHeaders.inject(Context.root().with(span), new RecordHeaders());
    }

    void emit(CommandEnvelope envelope, Outcome outcome, long timestamp) {
        for (EventEnvelope event : outcome.events()) {
            emitEvent(event, timestamp);
        }
        for (NotificationRequested notification : outcome.notifications()) {
            context.forward(new Record<String, Object>(notification.workspaceId(), notification, timestamp, traced(new RecordHeaders())),
                    DecisionTopology.NOTIFICATIONS_SINK);
        }
        Reply reply = outcome.replyTo(envelope);
        if (span != null) {
            describe(reply, outcome);
        }
        if (reply != null && !replies.answeredInProcess(reply)) {
            context.forward(new Record<String, Object>(reply.commandId(), reply, timestamp, traced(new RecordHeaders())),
                    DecisionTopology.REPLIES_SINK);
        }
    }

    /** An event of no command (the expiry sweep's). */
    void emitEvent(EventEnvelope event, long timestamp) {
        context.forward(new Record<String, Object>(event.workspaceId(), event, timestamp,
                traced(EventTypeHeader.of(event.event()))), DecisionTopology.EVENTS_SINK);
    }

    private Headers traced(Headers headers) {
        if (trace != null) {
            trace.forEach(header -> headers.add(header.key(), header.value()));
        }
        return headers;
    }

    private void describe(Reply reply, Outcome outcome) {
        if (reply != null) {
            GatewayAttributes.reply(span, reply);
            return;
        }
        // nobody waits for this one (or its reply could not be made): what the evaluation decided is in its event
        for (EventEnvelope event : outcome.events()) {
            if (event.event() instanceof ActionEvaluated evaluated) {
                GatewayAttributes.evaluated(span, evaluated);
            }
        }
    }
}
