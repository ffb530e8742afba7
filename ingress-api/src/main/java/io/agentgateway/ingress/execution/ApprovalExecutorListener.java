package io.agentgateway.ingress.execution;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.MessageListener;

/**
 * Receives every record of the events topic and hands approvals that ask for a run to the executor.
 * Records are only parsed when their {@link EventTypeHeader} says {@code approval_reviewed} (records
 * written before that header: when their bytes mention it): every ingress replica
 * sees every event (one per evaluation), and parsing them all would cost each replica as much as the
 * projector. The type name is written literally by the contract's mapper, so nothing is missed; a
 * payload that happens to contain the word is parsed and then ignored.
 */
final class ApprovalExecutorListener implements MessageListener<String, byte[]> {
    private static final Logger log = LoggerFactory.getLogger(ApprovalExecutorListener.class);
    private static final String REVIEWED = EventTypeHeader.wireName(ApprovalReviewed.class);
    private static final byte[] MARKER = REVIEWED.getBytes(StandardCharsets.UTF_8);

    private final ApprovedCallExecutor executor;

    ApprovalExecutorListener(ApprovedCallExecutor executor) {
        this.executor = executor;
    }

    @Override
    public void onMessage(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null || !mayBeAReview(record)) {
            return;
        }
        EventEnvelope envelope;
        try {
            envelope = Topics.EVENTS.valueSerde().deserializer().deserialize(record.topic(), record.value());
        } catch (SerializationException unreadable) {
            log.warn("skipped unreadable event record {}-{}@{}", record.topic(), record.partition(), record.offset());
            return;
        }
        if (envelope != null && envelope.event() instanceof ApprovalReviewed reviewed
                && ApprovedCallExecutor.asksForARun(reviewed)) {
            executor.execute(envelope, reviewed);
        }
    }

    /** By the event-type header; a record from before the header by its bytes. */
    private static boolean mayBeAReview(ConsumerRecord<String, byte[]> record) {
        return EventTypeHeader.typeOf(record.headers())
                .map(REVIEWED::equals)
                .orElseGet(() -> indexOf(record.value(), MARKER) >= 0);
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
