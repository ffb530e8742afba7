package io.agentgateway.gatewaytracing;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.tracing.*}. Everything about where spans go and how many are kept is the SDK's, from the standard
 * {@code OTEL_*} variables ({@link GatewayTracing#fromEnvironment}); these say only whether there are spans at all.
 *
 * @param enabled            spans are made and trace context travels with every record ({@code GATEWAY_TRACING_ENABLED});
 *                           false by default: tracing off costs nothing on the decision path
 * @param propagateUpstream  the gateway's {@code traceparent} goes with its calls to upstreams
 *                           ({@code GATEWAY_TRACING_PROPAGATEUPSTREAM}); false by default
 * @param serviceName        {@code service.name} unless {@code OTEL_SERVICE_NAME} is set; each service defaults to its own
 */
@ConfigurationProperties("gateway.tracing")
public record TracingProperties(boolean enabled, boolean propagateUpstream, String serviceName) {}
