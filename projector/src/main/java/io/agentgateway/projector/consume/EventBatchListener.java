package io.agentgateway.projector.consume;

import io.agentgateway.projector.readmodel.EventWritePlanner;
import io.agentgateway.projector.readmodel.InvalidEventException;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.stereotype.Component;

/**
 * Receives one poll's worth of the events topic and projects it. The container commits the batch's
 * offsets only after this method returns, that is after the read-model transaction committed:
 * at-least-once delivery with idempotent writes, so effectively once.
 *
 * <p>A record that cannot be projected (unreadable bytes, an unknown event type, a newer schema, a
 * malformed field) is logged by position, counted and skipped: it must never hold the partition.
 */
@Component
public class EventBatchListener implements BatchMessageListener<String, EventEnvelope> {
    private static final Logger log = LoggerFactory.getLogger(EventBatchListener.class);

    private final EventWritePlanner planner;
    private final BatchProjection projection;
    private final ProjectionMetrics metrics;
    private final ProjectionProgress progress;

    public EventBatchListener(EventWritePlanner planner, BatchProjection projection, ProjectionMetrics metrics,
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
            PlannedEvent event = plan(record);
            if (event != null) {
                planned.add(event);
            }
        }
        projection.project(planned);
        progress.handled(records);
    }

    /** The event with its writes, or null when it is skipped. */
    private PlannedEvent plan(ConsumerRecord<String, EventEnvelope> record) {
        EventEnvelope envelope = record.value();
        if (envelope == null) {
            // the ErrorHandlingDeserializer turned a parse failure into a null value
            return skip(record, SkipReason.UNREADABLE, "not a readable event envelope");
        }
        if (envelope.schemaVersion() > EventEnvelope.CURRENT_VERSION) {
            return skip(record, SkipReason.UNSUPPORTED_SCHEMA_VERSION,
                    "schema version " + envelope.schemaVersion() + " is newer than " + EventEnvelope.CURRENT_VERSION);
        }
        try {
            return new PlannedEvent(record.topic(), record.partition(), record.offset(), envelope, planner.plan(envelope));
        } catch (InvalidEventException e) {
            return skip(record, SkipReason.INVALID, e.getMessage());
        }
    }

    private PlannedEvent skip(ConsumerRecord<String, EventEnvelope> record, SkipReason reason, String why) {
        log.warn("Skipped event record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), why);
        metrics.skipped(reason);
        return null;
    }
}
