package io.agentgateway.projector.consume;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.stereotype.Component;

/**
 * Receives one poll's worth of the events topic and projects it. The container commits the batch's
 * offsets only after this method returns, that is after the read-model transaction committed:
 * at-least-once delivery with idempotent writes, so effectively once.
 *
 * <p>A record that cannot be projected is logged by position, counted and skipped
 * ({@link EventRecordPlanner}): it must never hold the partition.
 *
 * <p>While tracing is on, each event that carries a trace context is projected in a span of its own, a child of the
 * decision that emitted it, from the batch's start to its commit (one transaction writes them all).
 */
@Component
public class EventBatchListener implements BatchMessageListener<String, EventEnvelope> {
    private final EventRecordPlanner planner;
    private final BatchProjection projection;
    private final ProjectionMetrics metrics;
    private final ProjectionProgress progress;
    private final GatewayTracing tracing;

    public EventBatchListener(EventRecordPlanner planner, BatchProjection projection, ProjectionMetrics metrics,
            ProjectionProgress progress, ObjectProvider<GatewayTracing> tracing) {
        this.planner = planner;
        this.projection = projection;
        this.metrics = metrics;
        this.progress = progress;
        this.tracing = tracing.getIfAvailable(GatewayTracing::disabled);
    }

    @Override
    public void onMessage(List<ConsumerRecord<String, EventEnvelope>> records) {
        List<Span> spans = tracing.enabled() ? new ArrayList<>() : null;
        List<PlannedEvent> planned = new ArrayList<>(records.size());
        for (ConsumerRecord<String, EventEnvelope> record : records) {
            // the ErrorHandlingDeserializer turned a parse failure into a null value
            PlannedEvent event = planner.plan(record.topic(), record.partition(), record.offset(), record.value(),
                    record.headers(), metrics::skipped);
            if (event != null) {
                planned.add(event);
                if (spans != null && TraceHeaders.present(record.headers())) {
                    spans.add(start(record));
                }
            }
        }
        try {
            projection.project(planned);
        } catch (RuntimeException failed) {
            if (spans != null) {
                spans.forEach(span -> ReactorTracing.failed(span, failed));
            }
            throw failed;
        } finally {
            if (spans != null) {
                spans.forEach(Span::end);
            }
        }
        progress.handled(records);
    }

    private Span start(ConsumerRecord<String, EventEnvelope> record) {
        Span span = tracing.tracer().spanBuilder("project " + record.value().event().getClass().getSimpleName())
                .setSpanKind(SpanKind.CONSUMER).setParent(TraceHeaders.extract(record.headers()))
                .setAttribute(GatewayAttributes.MESSAGING_DESTINATION, Topics.EVENTS.name()).startSpan();
        GatewayAttributes.event(span, record.value());
        return span;
    }
}
