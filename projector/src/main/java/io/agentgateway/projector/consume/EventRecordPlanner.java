package io.agentgateway.projector.consume;

import io.agentgateway.projector.readmodel.EventWritePlanner;
import io.agentgateway.projector.readmodel.InvalidEventException;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.gatewaytracing.TraceHeaders;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Decides what one record of the events topic becomes: an event with its writes, or a skip. A record
 * that cannot be projected (unreadable bytes, an unknown event type, a newer schema, a malformed field)
 * is logged by position, never with its payload, and must never hold the partition. Shared by the live
 * listener and the rebuild, so both skip exactly the same records.
 */
@Component
public class EventRecordPlanner {
    private static final Logger log = LoggerFactory.getLogger(EventRecordPlanner.class);

    private final EventWritePlanner planner;

    public EventRecordPlanner(EventWritePlanner planner) {
        this.planner = planner;
    }

    /**
     * @param envelope the parsed value, or null when it did not parse (or was a tombstone)
     * @param skipped  told the reason when the record is skipped
     * @return the event with its writes, or null when it is skipped
     */
    public PlannedEvent plan(String topic, int partition, long offset, EventEnvelope envelope,
            Consumer<SkipReason> skipped) {
        return plan(topic, partition, offset, envelope, null, skipped);
    }

    /**
     * @param headers the record's headers: an approval's row keeps the {@code traceparent} of the request that was held
     *                (the approval executor links its run to it); only read for an {@link ApprovalRequested}
     */
    public PlannedEvent plan(String topic, int partition, long offset, EventEnvelope envelope, Headers headers,
            Consumer<SkipReason> skipped) {
        if (envelope == null) {
            return skip(topic, partition, offset, SkipReason.UNREADABLE, "not a readable event envelope", skipped);
        }
        if (envelope.schemaVersion() > EventEnvelope.CURRENT_VERSION) {
            return skip(topic, partition, offset, SkipReason.UNSUPPORTED_SCHEMA_VERSION,
                    "schema version " + envelope.schemaVersion() + " is newer than " + EventEnvelope.CURRENT_VERSION,
                    skipped);
        }
        try {
            String heldTraceParent = envelope.event() instanceof ApprovalRequested ? traceParent(headers) : null;
            return new PlannedEvent(topic, partition, offset, envelope, planner.plan(envelope, heldTraceParent));
        } catch (InvalidEventException e) {
            return skip(topic, partition, offset, SkipReason.INVALID, e.getMessage(), skipped);
        }
    }

    private static String traceParent(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(TraceHeaders.TRACEPARENT);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static PlannedEvent skip(String topic, int partition, long offset, SkipReason reason, String why,
            Consumer<SkipReason> skipped) {
        log.warn("Skipped event record {}-{}@{}: {}", topic, partition, offset, why);
        skipped.accept(reason);
        return null;
    }
}
