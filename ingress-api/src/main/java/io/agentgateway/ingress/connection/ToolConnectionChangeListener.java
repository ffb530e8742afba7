package io.agentgateway.ingress.connection;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListener;

/**
 * Tells the connection caches ({@link ToolConnectionChangeObserver}s: the MCP gate's connection, the
 * webhook candidates) when a workspace's tool connection changed, from the events topic. Every ingress
 * instance needs every change, so it reads all partitions in a consumer group of its own, from the
 * end, committing nothing. Only records whose {@link EventTypeHeader} names a connection event are
 * parsed (the topic is mostly audit entries; records written before that header: when their bytes
 * name one).
 *
 * <p>The caches are used only while this listener holds its partitions, and only once their end
 * positions are known: a change after that point cannot be missed.
 */
final class ToolConnectionChangeListener implements MessageListener<String, byte[]>, ConsumerAwareRebalanceListener {
    private static final Logger log = LoggerFactory.getLogger(ToolConnectionChangeListener.class);
    private static final Set<String> CONNECTION_CHANGES = Set.of(EventTypeHeader.wireName(ToolConnectionUpserted.class),
            EventTypeHeader.wireName(ToolConnectionDeleted.class), EventTypeHeader.wireName(WebhookSecretRotated.class));

    private final List<ToolConnectionChangeObserver> observers;
    private final Deserializer<EventEnvelope> events = Topics.EVENTS.valueSerde().deserializer();

    ToolConnectionChangeListener(List<ToolConnectionChangeObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    @Override
    public void onMessage(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null || !EventTypeHeader.mayBeOneOf(record.headers(), record.value(), CONNECTION_CHANGES)) {
            return;
        }
        EventEnvelope envelope;
        try {
            envelope = events.deserialize(record.topic(), record.value());
        } catch (RuntimeException e) {
            // unreadable: it may have been a connection change, so nothing cached may be trusted any more
            log.warn("unreadable event at {}-{}@{}; dropping the cached tool connections", record.topic(),
                    record.partition(), record.offset());
            observers.forEach(ToolConnectionChangeObserver::forgetAll);
            return;
        }
        Tool tool = changedTool(envelope.event());
        if (tool != null) {
            UUID workspaceId = UUID.fromString(envelope.workspaceId());
            observers.forEach(observer -> observer.changed(workspaceId, tool, envelope.workspaceVersion()));
        }
    }

    private static Tool changedTool(DomainEvent event) {
        if (event instanceof ToolConnectionUpserted upserted) {
            return toolOf(upserted.connection());
        }
        if (event instanceof WebhookSecretRotated rotated) {
            return toolOf(rotated.connection());
        }
        return event instanceof ToolConnectionDeleted deleted ? deleted.tool() : null;
    }

    private static Tool toolOf(ToolConnection connection) {
        return connection == null ? null : connection.tool();
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // resolve the starting positions now ("latest"): from here on no change can slip by
        partitions.forEach(consumer::position);
        observers.forEach(observer -> observer.listening(!partitions.isEmpty()));
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        observers.forEach(observer -> observer.listening(false));
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        observers.forEach(observer -> observer.listening(false));
    }
}
