package io.agentgateway.gatewaytracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The W3C trace context as Kafka record headers: {@code traceparent} (and {@code tracestate} when the span has one),
 * nothing else of the context. Every command, reply, event and notification record of a traced request carries it,
 * so the span that handles the record is a child of the span that wrote it. Callers check
 * {@link GatewayTracing#enabled()} first: with tracing off no header is read or written.
 */
public final class TraceHeaders {
    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";
    static final TextMapPropagator PROPAGATOR = W3CTraceContextPropagator.getInstance();

    private static final TextMapGetter<Headers> KAFKA_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers carrier) {
            return List.of(TRACEPARENT, TRACESTATE);
        }

        @Override
        public String get(Headers carrier, String key) {
            Header header = carrier == null ? null : carrier.lastHeader(key);
            return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        }
    };
    private static final TextMapSetter<Headers> KAFKA_SETTER = (carrier, key, value) -> {
        if (carrier != null) {
            carrier.remove(key);
            carrier.add(key, value.getBytes(StandardCharsets.UTF_8));
        }
    };
    private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private static final TextMapGetter<UnaryOperator<String>> HTTP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(UnaryOperator<String> carrier) {
            return List.of(TRACEPARENT, TRACESTATE);
        }

        @Override
        public String get(UnaryOperator<String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private TraceHeaders() {}

    /** Whether the record carries a trace context at all (one header lookup, nothing parsed). */
    public static boolean present(Headers headers) {
        return headers != null && headers.lastHeader(TRACEPARENT) != null;
    }

    /** The context the record's headers carry, as the parent of the span that handles it; root when none (or malformed). */
    public static Context extract(Headers headers) {
        if (!present(headers)) {
            return Context.root();
        }
        return PROPAGATOR.extract(Context.root(), headers, KAFKA_GETTER);
    }

    /** The context an HTTP request's {@code traceparent}/{@code tracestate} headers carry (root when none or malformed). */
    public static Context extract(UnaryOperator<String> header) {
        return PROPAGATOR.extract(Context.root(), header, HTTP_GETTER);
    }

    /** Writes {@code context}'s span into {@code headers} (replacing any trace context they had); returns them. */
    public static Headers inject(Context context, Headers headers) {
        PROPAGATOR.inject(context, headers, KAFKA_SETTER);
        return headers;
    }

    /** The {@code traceparent} of a span (to keep beside what it caused, e.g. a held call). */
    public static String traceparent(SpanContext span) {
        if (!span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** The span a kept {@code traceparent} names, or an invalid context when it is null or malformed (for a span link). */
    public static SpanContext parse(String traceparent) {
        if (traceparent == null || traceparent.isBlank()) {
            return SpanContext.getInvalid();
        }
        Context context = PROPAGATOR.extract(Context.root(), Map.of(TRACEPARENT, traceparent), MAP_GETTER);
        return Span.fromContext(context).getSpanContext();
    }
}
