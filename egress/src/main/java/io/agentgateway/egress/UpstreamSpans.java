package io.agentgateway.egress;

import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.net.URI;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The client span of one call to an upstream, a child of the request (or held-call execution) that makes it, from
 * the request until the upstream's status and headers: method, upstream kind, host and port, status. Never the URL's
 * path or query (they may hold what the agent sent, or a token), never a header. Only inside a trace: a call made
 * outside one (a session's background stream) starts no trace of its own. The {@code traceparent} of the span goes
 * with the request only when {@link GatewayTracing#propagatesUpstream()}.
 */
final class UpstreamSpans implements ExchangeFilterFunction {
    private final GatewayTracing tracing;
    private final String upstream;

    UpstreamSpans(GatewayTracing tracing, String upstream) {
        this.tracing = tracing;
        this.upstream = upstream;
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        if (!tracing.enabled()) {
            return next.exchange(request);
        }
        return Mono.deferContextual(view -> {
            Context parent = ReactorTracing.parent(view);
            if (!GatewayTracing.inTrace(parent)) {
                return next.exchange(request);
            }
            URI url = request.url();
            String method = request.method().name();
            Span span = tracing.tracer().spanBuilder(upstream + " " + method).setSpanKind(SpanKind.CLIENT).setParent(parent)
                    .setAttribute(GatewayAttributes.UPSTREAM, upstream)
                    .setAttribute(GatewayAttributes.HTTP_METHOD, method)
                    .startSpan();
            if (url.getHost() != null) {
                span.setAttribute(GatewayAttributes.SERVER_ADDRESS, url.getHost());
            }
            if (url.getPort() > 0) {
                span.setAttribute(GatewayAttributes.SERVER_PORT, (long) url.getPort());
            }
            Context inner = parent.with(span);
            ClientRequest sent = tracing.propagatesUpstream()
                    ? ClientRequest.from(request).headers(headers -> tracing.injectUpstream(inner, headers::set)).build()
                    : request;
            return next.exchange(sent)
                    .doOnNext(response -> {
                        int status = response.statusCode().value();
                        span.setAttribute(GatewayAttributes.HTTP_STATUS, (long) status);
                        if (status >= 500) {
                            span.setStatus(StatusCode.ERROR);
                        }
                    })
                    .doOnError(failure -> ReactorTracing.failed(span, failure))
                    .doFinally(signal -> {
                        if (signal == SignalType.CANCEL) {
                            span.setAttribute(GatewayAttributes.CANCELLED, true);
                        }
                        span.end();
                    })
                    .contextWrite(context -> context.put(ReactorTracing.KEY, inner));
        });
    }
}
