package io.agentgateway.projector.consume;

import io.agentgateway.schemas.event.EventEnvelope;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.stereotype.Component;

/**
 * Receives one poll's worth of the events topic and projects it. The container commits the batch's
 * offsets only after this method returns, that is after the read-model transaction committed:
 * at-least-once delivery with idempotent writes, so effectively once.
 *
 * <p>A record that cannot be projected is logged by position, counted and skipped
 * ({@link EventRecordPlanner}): it must never hold the partition.
 */
@Component
public class EventBatchListener implements BatchMessageListener<String, EventEnvelope> {
    private final EventRecordPlanner planner;
    private final BatchProjection projection;
    private final ProjectionMetrics metrics;
    private final ProjectionProgress progress;

    public EventBatchListener(EventRecordPlanner planner, BatchProjection projection, ProjectionMetrics metrics,
            ProjectionProgress progress) {
        this.planner = planner;
        this.projection = projection;
        this.metrics = metrics;
        this.progress = progress;
    }

    @Override
    public void onMessage(List<ConsumerRecord<String, EventEnvelope>> records) {
        List<PlannedEvent> planned = new ArrayList<>(records.size());
        for (ConsumerRecord<String, EventEnvelope> record : records) {
            // the ErrorHandlingDeserializer turned a parse failure into a null value
            PlannedEvent event = planner.plan(record.topic(), record.partition(), record.offset(), record.value(),
                    metrics::skipped);
            if (event != null) {
                planned.add(event);
            }
        }
        projection.project(planned);
        progress.handled(records);
    }
}
