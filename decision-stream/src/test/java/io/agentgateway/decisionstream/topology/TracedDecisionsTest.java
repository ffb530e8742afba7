package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision stream's part of a trace: a command record's {@code traceparent} is the parent of the span the command
 * is decided in, and every record that decision emits (events, notifications, the reply) carries that span's context.
 * Tracing off, no record gets a trace header, whatever the command carried.
 */
class TracedDecisionsTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    @TempDir
    Path stateDir;

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build();

    @AfterEach
    void closeSdk() {
        sdk.close();
    }

    private static Headers callerContext() {
        return new RecordHeaders().add(TraceHeaders.TRACEPARENT,
                ("00-" + TRACE_ID + "-" + CALLER_SPAN + "-01").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDecisionIsAChildOfTheCommandRecordAndEveryRecordItEmitsCarriesItsSpan() {
        try (DecisionDriver driver = new DecisionDriver(DecisionSettings.defaults(), stateDir, ProcessingGuarantee.AT_LEAST_ONCE,
                ReplyRoute.KAFKA, GatewayTracing.of(sdk, false))) {
            TestWorkspace workspace = TestWorkspace.create(driver);
            exported.reset();
            // high risk: held for approval, so the decision emits events, a notification and the reply
            CommandEnvelope held = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    TestWorkspace.action(Tool.CODE_HOST, "repo.delete", RiskLevel.HIGH).build());

            Emitted emitted = driver.send(held, callerContext());

            assertThat(emitted.replies()).singleElement().satisfies(reply ->
                    assertThat(reply.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL));
            SpanData decide = exported.getFinishedSpanItems().stream().filter(span -> span.getName().equals("decide EvaluateAction"))
                    .findFirst().orElseThrow();
            assertThat(decide.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(decide.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(decide.getParentSpanId()).isEqualTo(CALLER_SPAN);
            assertThat(decide.getAttributes().get(GatewayAttributes.WORKSPACE)).isEqualTo(workspace.id);
            assertThat(decide.getAttributes().get(GatewayAttributes.CORRELATION_ID)).isEqualTo(held.correlationId());
            assertThat(decide.getAttributes().get(GatewayAttributes.TOOL)).isEqualTo("code_host");
            assertThat(decide.getAttributes().get(GatewayAttributes.DECISION)).isEqualTo("require_approval");
            assertThat(decide.getAttributes().get(GatewayAttributes.APPROVAL_ID)).isNotBlank();

            List<Headers> emittedHeaders = Stream.of(Topics.EVENTS, Topics.NOTIFICATIONS, Topics.REPLIES)
                    .flatMap(topic -> driver.lastHeaders(topic.name()).stream()).toList();
            assertThat(driver.lastHeaders(Topics.EVENTS.name())).as("ActionEvaluated, ApprovalRequested").hasSizeGreaterThanOrEqualTo(2);
            assertThat(driver.lastHeaders(Topics.NOTIFICATIONS.name())).isNotEmpty();
            assertThat(emittedHeaders).allSatisfy(headers -> {
                SpanContext carried = TraceHeaders.parse(value(headers.lastHeader(TraceHeaders.TRACEPARENT)));
                assertThat(carried.getTraceId()).isEqualTo(TRACE_ID);
                assertThat(carried.getSpanId()).isEqualTo(decide.getSpanId());
            });
        }
    }

    @Test
    void withTracingOffNoRecordCarriesATraceContext() {
        try (DecisionDriver driver = new DecisionDriver(DecisionSettings.defaults(), stateDir, ProcessingGuarantee.AT_LEAST_ONCE,
                ReplyRoute.KAFKA, GatewayTracing.disabled())) {
            TestWorkspace workspace = TestWorkspace.create(driver);
            CommandEnvelope held = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    TestWorkspace.action(Tool.CODE_HOST, "repo.delete", RiskLevel.HIGH).build());

            driver.send(held, callerContext());

            List<Headers> emittedHeaders = Stream.of(Topics.EVENTS, Topics.NOTIFICATIONS, Topics.REPLIES)
                    .flatMap(topic -> driver.lastHeaders(topic.name()).stream()).toList();
            assertThat(emittedHeaders).hasSizeGreaterThanOrEqualTo(4)
                    .allSatisfy(headers -> assertThat(headers.lastHeader(TraceHeaders.TRACEPARENT)).isNull());
        }
    }

    private static String value(Header header) {
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
