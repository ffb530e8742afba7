package io.agentgateway.gatewaytracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class TracingTest {
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build();

    @AfterEach
    void close() {
        sdk.close();
    }

    @Test
    void aRecordsTraceparentHeaderIsReadAndWrittenAsTheW3cFormat() {
        Headers headers = new RecordHeaders().add(TraceHeaders.TRACEPARENT, TRACEPARENT.getBytes(StandardCharsets.UTF_8));
        Context extracted = TraceHeaders.extract(headers);
        SpanContext parent = Span.fromContext(extracted).getSpanContext();
        assertThat(parent.isRemote()).isTrue();
        assertThat(parent.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(parent.getSpanId()).isEqualTo("00f067aa0ba902b7");

        Headers written = TraceHeaders.inject(extracted, new RecordHeaders().add(TraceHeaders.TRACEPARENT, new byte[] {1}));
        assertThat(written.headers(TraceHeaders.TRACEPARENT)).as("replaced, not added").hasSize(1);
        assertThat(new String(written.lastHeader(TraceHeaders.TRACEPARENT).value(), StandardCharsets.UTF_8)).isEqualTo(TRACEPARENT);
        assertThat(TraceHeaders.traceparent(parent)).isEqualTo(TRACEPARENT);
        assertThat(TraceHeaders.parse(TRACEPARENT)).isEqualTo(parent);
    }

    @Test
    void aMissingOrMalformedTraceparentIsNoParent() {
        assertThat(TraceHeaders.present(new RecordHeaders())).isFalse();
        assertThat(Span.fromContext(TraceHeaders.extract(new RecordHeaders())).getSpanContext().isValid()).isFalse();
        Headers malformed = new RecordHeaders().add(TraceHeaders.TRACEPARENT, "00-zz-yy-01".getBytes(StandardCharsets.UTF_8));
        assertThat(Span.fromContext(TraceHeaders.extract(malformed)).getSpanContext().isValid()).isFalse();
        assertThat(TraceHeaders.parse(null).isValid()).isFalse();
        assertThat(TraceHeaders.parse("not a traceparent").isValid()).isFalse();
    }

    @Test
    void offMeansNoSpanAndNothingSentUpstream() {
        GatewayTracing off = GatewayTracing.disabled();
        Mono<String> work = Mono.just("done");
        assertThat(ReactorTracing.within(off, "x", SpanKind.CLIENT, Attributes.empty(), work)).isSameAs(work);
        Map<String, String> headers = new HashMap<>();
        off.injectUpstream(TraceHeaders.extract(new RecordHeaders().add(TraceHeaders.TRACEPARENT,
                TRACEPARENT.getBytes(StandardCharsets.UTF_8))), headers::put);
        assertThat(headers).isEmpty();
    }

    @Test
    void theUpstreamGetsTheTraceContextOnlyWhenConfigured() {
        Context parent = TraceHeaders.extract(name -> name.equals(TraceHeaders.TRACEPARENT) ? TRACEPARENT : null);
        Map<String, String> kept = new HashMap<>();
        GatewayTracing.of(sdk, false).injectUpstream(parent, kept::put);
        assertThat(kept).isEmpty();
        Map<String, String> sent = new HashMap<>();
        GatewayTracing.of(sdk, true).injectUpstream(parent, sent::put);
        assertThat(sent).containsEntry(TraceHeaders.TRACEPARENT, TRACEPARENT);
    }

    @Test
    void aClientSpanWrapsTheWorkInsideATraceAndNeverStartsOne() {
        GatewayTracing on = GatewayTracing.of(sdk, false);
        Context parent = TraceHeaders.extract(name -> name.equals(TraceHeaders.TRACEPARENT) ? TRACEPARENT : null);
        String seen = ReactorTracing.within(on, "upstream call", SpanKind.CLIENT, Attributes.of(GatewayAttributes.UPSTREAM, "mcp"),
                        Mono.deferContextual(view -> Mono.just(Span.fromContext(ReactorTracing.parent(view)).getSpanContext().getSpanId())))
                .contextWrite(context -> context.put(ReactorTracing.KEY, parent))
                .block();
        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(seen).as("the work runs inside the span").isEqualTo(span.getSpanId());

        exported.reset();
        assertThat(ReactorTracing.within(on, "outside", SpanKind.CLIENT, Attributes.empty(), Mono.just(1)).block()).isEqualTo(1);
        assertThat(exported.getFinishedSpanItems()).as("no trace, no client span").isEmpty();
    }

    @Test
    void aFailureIsRecordedByItsClassNeverItsMessage() {
        GatewayTracing on = GatewayTracing.of(sdk, false);
        Context parent = TraceHeaders.extract(name -> name.equals(TraceHeaders.TRACEPARENT) ? TRACEPARENT : null);
        Mono<Object> failing = ReactorTracing.within(on, "call", SpanKind.CLIENT, Attributes.empty(),
                Mono.error(new IllegalStateException("token=s3cr3t"))).contextWrite(context -> context.put(ReactorTracing.KEY, parent));
        assertThat(failing.onErrorReturn("failed").block()).isEqualTo("failed");
        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getStatus().getDescription()).isEqualTo("IllegalStateException");
        assertThat(span.getEvents()).isEmpty();
        assertThat(span.getAttributes().asMap().values()).noneMatch(value -> String.valueOf(value).contains("s3cr3t"));
    }
}
