package io.agentgateway.gatewaytracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The traces of one process: an OpenTelemetry instance and whether anything is traced at all. Every hop asks
 * {@link #enabled()} first and, when it is false (the default), does nothing else: no header is read or written,
 * no span or context is made, so tracing off costs a field read per record or request.
 *
 * <p>Made from the standard {@code OTEL_*} variables (and {@code otel.*} system properties) by the SDK's own
 * autoconfiguration ({@link #fromEnvironment}); given whole by the embedded default and by tests
 * ({@link #of}). Traces only: metrics stay with Micrometer and Prometheus, logs with logback, so the SDK's metric
 * and log exporters default to none.
 *
 * <p>{@link #propagatesUpstream()}: whether the gateway's trace context goes with its calls to upstreams (tools, MCP
 * servers, token endpoints, chat webhooks). Off unless {@code gateway.tracing.propagate-upstream}: a trace id sent to
 * a third party tells it which of its calls belong to one request of ours.
 */
public final class GatewayTracing implements AutoCloseable {
    /** The instrumentation scope of every span the gateway makes. */
    public static final String SCOPE = "io.agentgateway";
    private static final GatewayTracing DISABLED = new GatewayTracing(OpenTelemetry.noop(), false, false, null);
    private static final TextMapSetter<BiConsumer<String, String>> HEADER_SETTER = (carrier, key, value) -> {
        if (carrier != null) {
            carrier.accept(key, value);
        }
    };

    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;
    private final boolean enabled;
    private final boolean propagatesUpstream;
    private final OpenTelemetrySdk owned;

    private GatewayTracing(OpenTelemetry openTelemetry, boolean enabled, boolean propagatesUpstream, OpenTelemetrySdk owned) {
        this.openTelemetry = openTelemetry;
        this.tracer = openTelemetry.getTracer(SCOPE);
        this.enabled = enabled;
        this.propagatesUpstream = propagatesUpstream;
        this.owned = owned;
    }

    /** Nothing traced (the default). */
    public static GatewayTracing disabled() {
        return DISABLED;
    }

    /** Traces to {@code openTelemetry}, which the caller keeps and closes (the embedded default, tests). */
    public static GatewayTracing of(OpenTelemetry openTelemetry, boolean propagatesUpstream) {
        return new GatewayTracing(openTelemetry, true, propagatesUpstream, null);
    }

    /**
     * An SDK configured by the {@code OTEL_*} variables: exporter ({@code OTEL_TRACES_EXPORTER}, OTLP unless
     * {@code none}), endpoint ({@code OTEL_EXPORTER_OTLP_*}; OTLP/HTTP protobuf, port 4318, the one protocol the
     * bundled sender speaks), sampler ({@code OTEL_TRACES_SAMPLER},
     * parent-based always-on unless set), resource ({@code OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}).
     * {@code OTEL_SDK_DISABLED=true} turns it off again. Closed with this instance (its exporter flushed).
     *
     * @param serviceName {@code service.name} unless {@code OTEL_SERVICE_NAME} names one
     */
    public static GatewayTracing fromEnvironment(String serviceName, boolean propagatesUpstream) {
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                // defaults only: the variables and system properties win
                .addPropertiesSupplier(() -> Map.of(
                        "otel.service.name", serviceName,
                        // the OTLP exporter sends with the JDK's HttpClient, which speaks OTLP/HTTP, not gRPC
                        "otel.exporter.otlp.protocol", "http/protobuf",
                        "otel.metrics.exporter", "none",
                        "otel.logs.exporter", "none"))
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        return new GatewayTracing(sdk, true, propagatesUpstream, sdk);
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean propagatesUpstream() {
        return enabled && propagatesUpstream;
    }

    public Tracer tracer() {
        return tracer;
    }

    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    /**
     * Hands {@code traceparent} (and {@code tracestate}) of {@code context}'s span to {@code header} for a call to an
     * upstream, when {@link #propagatesUpstream()}; otherwise does nothing.
     */
    public void injectUpstream(Context context, BiConsumer<String, String> header) {
        if (propagatesUpstream() && Span.fromContext(context).getSpanContext().isValid()) {
            TraceHeaders.PROPAGATOR.inject(context, header, HEADER_SETTER);
        }
    }

    /** Whether {@code context} holds a span of a trace (client spans are made only inside one). */
    public static boolean inTrace(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        return span.isValid();
    }

    /** Flushes and shuts the SDK down if this instance made it. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
