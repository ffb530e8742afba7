package io.agentgateway.projector.consume;

import io.agentgateway.projector.readmodel.Write;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.List;

/** An event of a batch with the writes it causes, and where it sits in the log (for logs, never its payload). */
public record PlannedEvent(String topic, int partition, long offset, EventEnvelope envelope, List<Write> writes) {

    public String where() {
        return topic + "-" + partition + "@" + offset;
    }

    public String type() {
        return envelope.event().getClass().getSimpleName();
    }
}
