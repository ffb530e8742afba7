package io.agentgateway.gatewaytracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.util.context.ContextView;

/**
 * The trace context of a reactive pipeline: carried in the Reactor context under {@link #KEY} (a request's server
 * span puts it there; a client span replaces it for what it wraps), because the pipeline hops between event loops
 * and no thread-local follows it. Code that runs blocking on a thread of its own (the approval executor) uses the
 * thread's current context instead, which {@link #parent} falls back to.
 */
public final class ReactorTracing {
    /** The Reactor context key of the OpenTelemetry context. */
    public static final Object KEY = Context.class;

    private ReactorTracing() {}

    /** The context to parent a span on: the pipeline's, else the calling thread's current one. */
    public static Context parent(ContextView view) {
        Context carried = view.getOrDefault(KEY, null);
        return carried != null ? carried : Context.current();
    }

    /**
     * {@code work} inside a span named {@code name} when tracing is on and the pipeline is inside a trace (client
     * spans never start a trace of their own); {@code work} itself otherwise. A failure marks the span an error with
     * the failure's class name only: a message may quote what was sent.
     */
    public static <T> Mono<T> within(GatewayTracing tracing, String name, SpanKind kind, Attributes attributes, Mono<T> work) {
        if (!tracing.enabled()) {
            return work;
        }
        return Mono.deferContextual(view -> {
            Context parent = parent(view);
            if (!GatewayTracing.inTrace(parent)) {
                return work;
            }
            Span span = tracing.tracer().spanBuilder(name).setParent(parent).setSpanKind(kind)
                    .setAllAttributes(attributes).startSpan();
            Context inner = parent.with(span);
            return work
                    .doOnError(failure -> failed(span, failure))
                    .doFinally(signal -> {
                        if (signal == SignalType.CANCEL) {
                            span.setAttribute(GatewayAttributes.CANCELLED, true);
                        }
                        span.end();
                    })
                    .contextWrite(context -> context.put(KEY, inner));
        });
    }

    /** Marks {@code span} failed by {@code failure}'s class (never its message). */
    public static void failed(Span span, Throwable failure) {
        span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
        span.setAttribute(GatewayAttributes.ERROR_TYPE, failure.getClass().getName());
    }
}
