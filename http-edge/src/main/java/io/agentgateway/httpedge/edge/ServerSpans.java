package io.agentgateway.httpedge.edge;

import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The server span of every request, while tracing is on: it continues the caller's W3C {@code traceparent} (a new
 * trace when there is none or it is malformed), is named by method and route template ({@code POST
 * /functions/v1/evaluate-action}, never the path itself: a proxied path or an id says more than a span may), and
 * ends once the answer is committed, with its status. Its context rides in the Reactor context of the request's
 * pipeline ({@link ReactorTracing#KEY}): the command gateway and the upstream calls parent their spans on it. Tracing
 * off, the request passes straight on.
 *
 * <p>An error answer is written by the error handler after the filter chain has failed, so the span ends when that
 * answer is committed, not when the chain fails.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ServerSpans implements WebFilter {
    private static final String MANAGEMENT = "/actuator";

    private final GatewayTracing tracing;

    public ServerSpans(ObjectProvider<GatewayTracing> tracing) {
        this.tracing = tracing.getIfAvailable(GatewayTracing::disabled);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!tracing.enabled()) {
            return chain.filter(exchange);
        }
        ServerHttpRequest request = exchange.getRequest();
        if (request.getPath().value().startsWith(MANAGEMENT)) {
            return chain.filter(exchange);
        }
        Context parent = TraceHeaders.extract(name -> request.getHeaders().getFirst(name));
        String method = request.getMethod().name();
        Span span = tracing.tracer().spanBuilder(method).setSpanKind(SpanKind.SERVER).setParent(parent)
                .setAttribute(GatewayAttributes.HTTP_METHOD, method).startSpan();
        Context context = parent.with(span);
        Ending ending = new Ending(span, exchange);
        exchange.getResponse().beforeCommit(() -> {
            ending.committed();
            return Mono.empty();
        });
        return chain.filter(exchange)
                .doFinally(ending::chainEnded)
                .contextWrite(reactor -> reactor.put(ReactorTracing.KEY, context));
    }

    /** Ends the span once both the chain has ended and, after a failure, its error answer was committed. */
    private static final class Ending {
        private final Span span;
        private final ServerWebExchange exchange;
        private boolean committed;
        private boolean chainFailed;
        private boolean ended;

        Ending(Span span, ServerWebExchange exchange) {
            this.span = span;
            this.exchange = exchange;
        }

        synchronized void committed() {
            committed = true;
            describe();
            if (chainFailed) {
                end();
            }
        }

        synchronized void chainEnded(SignalType signal) {
            if (signal == SignalType.ON_ERROR && !committed) {
                // the error handler answers next: the span ends with that answer
                chainFailed = true;
                return;
            }
            if (signal == SignalType.CANCEL) {
                span.setAttribute(GatewayAttributes.CANCELLED, true);
            }
            describe();
            end();
        }

        private void describe() {
            Object pattern = exchange.getAttribute(RouterFunctions.MATCHING_PATTERN_ATTRIBUTE);
            if (pattern instanceof PathPattern route) {
                span.setAttribute(GatewayAttributes.HTTP_ROUTE, route.getPatternString());
                span.updateName(exchange.getRequest().getMethod().name() + " " + route.getPatternString());
            }
            span.setAttribute(GatewayAttributes.CORRELATION_ID, CorrelationIds.of(exchange));
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            if (status != null) {
                span.setAttribute(GatewayAttributes.HTTP_STATUS, (long) status.value());
                if (status.is5xxServerError()) {
                    span.setStatus(StatusCode.ERROR);
                }
            }
        }

        private void end() {
            if (!ended) {
                ended = true;
                span.end();
            }
        }
    }
}
