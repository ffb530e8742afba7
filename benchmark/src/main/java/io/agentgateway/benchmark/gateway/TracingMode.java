package io.agentgateway.benchmark.gateway;

import io.agentgateway.benchmark.peers.OtlpReceiver;
import java.util.Locale;
import java.util.Map;

/**
 * The gateway's tracing in a benchmark run ({@code bench.tracing}): what the gateway process is started with. All but
 * {@link #OFF} record every request (sampling 100 %: no caller sends a traceparent, so each request is a root the
 * default parent-based always-on sampler keeps).
 */
public enum TracingMode {
    /** The default: {@code gateway.tracing.enabled} unset. */
    OFF,
    /** Spans made, context carried in every record, nothing exported ({@code OTEL_TRACES_EXPORTER=none}). */
    ON,
    /** As {@link #ON}, exported over OTLP/HTTP (protobuf) to a receiver in the benchmark's process ({@link OtlpReceiver}). */
    EXPORT;

    public static TracingMode fromSystemProperties() {
        return valueOf(System.getProperty("bench.tracing", "off").strip().toUpperCase(Locale.ROOT));
    }

    /** The gateway's environment for this mode; {@code receiver} is the OTLP endpoint's base URL (only {@link #EXPORT}). */
    public Map<String, String> environment(String receiver) {
        return switch (this) {
            case OFF -> Map.of();
            case ON -> Map.of("GATEWAY_TRACING_ENABLED", "true", "OTEL_TRACES_EXPORTER", "none",
                    "OTEL_TRACES_SAMPLER", "parentbased_always_on");
            case EXPORT -> Map.of("GATEWAY_TRACING_ENABLED", "true", "OTEL_TRACES_EXPORTER", "otlp",
                    "OTEL_TRACES_SAMPLER", "parentbased_always_on",
                    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver + "/v1/traces");
        };
    }
}
