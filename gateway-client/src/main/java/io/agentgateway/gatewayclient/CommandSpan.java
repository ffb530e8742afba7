package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import org.apache.kafka.common.header.Headers;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.util.context.ContextView;

/**
 * The span of one command's round trip, from its publish to its reply: a child of the request that sent it (the
 * server span in the pipeline's context, or the executor's current span), and the parent of the decision stream's
 * span through the {@code traceparent} header of the command record. An evaluation's reply (decision, decided risk,
 * matched policy) is also written on the request's own span, so that a trace is found by what was decided.
 * Made only while tracing is on.
 */
final class CommandSpan {
    private final Span span;
    private final Span request;
    private final boolean evaluation;

    private CommandSpan(Span span, Span request, boolean evaluation) {
        this.span = span;
        this.request = request;
        this.evaluation = evaluation;
    }

    /** Starts the span and writes its context into the record's headers. */
    static CommandSpan start(GatewayTracing tracing, ContextView requestContext, CommandEnvelope envelope, Headers headers) {
        Context parent = ReactorTracing.parent(requestContext);
        Span span = tracing.tracer().spanBuilder("send " + GatewayAttributes.commandType(envelope.command()))
                .setParent(parent)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(GatewayAttributes.MESSAGING_DESTINATION, Topics.COMMANDS.name())
                .startSpan();
        GatewayAttributes.command(span, envelope);
        TraceHeaders.inject(parent.with(span), headers);
        boolean evaluation = envelope.command() instanceof EvaluateAction;
        Span request = Span.fromContext(parent);
        if (evaluation && request.isRecording()) {
            GatewayAttributes.command(request, envelope);
        }
        return new CommandSpan(span, request, evaluation);
    }

    /** {@code answered} ending this span with its outcome. */
    Mono<Reply> around(Mono<Reply> answered) {
        return answered
                .doOnNext(reply -> {
                    GatewayAttributes.reply(span, reply);
                    if (evaluation && request.isRecording()) {
                        GatewayAttributes.reply(request, reply);
                    }
                })
                .doOnError(failure -> ReactorTracing.failed(span, failure))
                .doFinally(signal -> {
                    if (signal == SignalType.CANCEL) {
                        span.setAttribute(GatewayAttributes.CANCELLED, true);
                    }
                    span.end();
                });
    }

    /** The command was not published. */
    void failed(Throwable failure) {
        ReactorTracing.failed(span, failure);
        span.end();
    }
}
