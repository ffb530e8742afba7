package io.agentgateway.egress;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * The client span of an upstream call: a child of the request inside whose trace it is made, naming method, upstream
 * kind, host, port and status but never the path or query; the gateway's {@code traceparent} goes with the request only
 * when propagation upstream is configured; off, or outside a trace, the request passes untouched and no span is made.
 */
class UpstreamSpansTest {
    private static final String CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final URI UPSTREAM = URI.create("http://127.0.0.1:9/repos/acme/api/issues?token=s3cr3t");

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build();
    /** What reached the wire: the upstream's side of the exchange (Spring's function, standing in for the connector). */
    private final List<ClientRequest> sent = new ArrayList<>();
    private final ExchangeFunction upstream = request -> {
        sent.add(request);
        return Mono.just(ClientResponse.create(HttpStatus.OK).build());
    };

    @AfterEach
    void close() {
        sdk.close();
    }

    private ClientResponse call(GatewayTracing tracing, Context parent) {
        ClientRequest request = ClientRequest.create(HttpMethod.GET, UPSTREAM).build();
        Mono<ClientResponse> exchange = new UpstreamSpans(tracing, "proxy").filter(request, upstream);
        return (parent == null ? exchange : exchange.contextWrite(context -> context.put(ReactorTracing.KEY, parent))).block();
    }

    private static Context caller() {
        return TraceHeaders.extract(name -> name.equals(TraceHeaders.TRACEPARENT) ? CALLER : null);
    }

    @Test
    void aCallInsideATraceIsAClientSpanOfItThatKeepsItsTraceparentHomeUnlessConfigured() {
        assertThat(call(GatewayTracing.of(sdk, false), caller()).statusCode().value()).isEqualTo(200);

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getName()).isEqualTo("proxy GET");
        assertThat(span.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getAttributes().get(GatewayAttributes.SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(span.getAttributes().get(GatewayAttributes.HTTP_STATUS)).isEqualTo(200L);
        assertThat(span.getAttributes().asMap().values()).noneMatch(value -> String.valueOf(value).contains("token")
                || String.valueOf(value).contains("/repos"));
        assertThat(sent.get(0).headers().containsHeader(TraceHeaders.TRACEPARENT)).isFalse();
    }

    @Test
    void withPropagationTheUpstreamGetsTheClientSpansTraceparent() {
        call(GatewayTracing.of(sdk, true), caller());

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(sent.get(0).headers().getFirst(TraceHeaders.TRACEPARENT))
                .isEqualTo("00-" + span.getTraceId() + "-" + span.getSpanId() + "-01");
    }

    @Test
    void offOrOutsideATraceTheRequestPassesUntouched() {
        call(GatewayTracing.disabled(), caller());
        call(GatewayTracing.of(sdk, true), null);

        assertThat(exported.getFinishedSpanItems()).isEmpty();
        assertThat(sent).hasSize(2).allSatisfy(request -> assertThat(request.headers().containsHeader(TraceHeaders.TRACEPARENT)).isFalse());
    }
}
