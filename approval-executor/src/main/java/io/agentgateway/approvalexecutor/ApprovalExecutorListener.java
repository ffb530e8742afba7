package io.agentgateway.approvalexecutor;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.kafka.EventTypeHeader;
import java.util.Set;
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
    private static final Set<String> REVIEWED = Set.of(EventTypeHeader.wireName(ApprovalReviewed.class));

    private final ApprovedCallExecutor executor;

    ApprovalExecutorListener(ApprovedCallExecutor executor) {
        this.executor = executor;
    }

    @Override
    public void onMessage(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null || !EventTypeHeader.mayBeOneOf(record.headers(), record.value(), REVIEWED)) {
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
            executor.execute(envelope, reviewed, record.headers());
        }
    }
}
