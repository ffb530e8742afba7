package io.agentgateway.ingress.mcp;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import java.util.Collection;
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
 * Tells the {@link McpConnectionCache} when a workspace's {@code mcp} connection changed, from the
 * events topic. Every ingress instance needs every change, so it reads all partitions in a consumer
 * group of its own, from the end, committing nothing. Only records whose {@link EventTypeHeader} names a
 * tool connection event are parsed (the topic is mostly audit entries; records written before that
 * header: when their bytes name one).
 *
 * <p>The cache is used only while this listener holds its partitions, and only once their end
 * positions are known: a change after that point cannot be missed.
 */
final class McpConnectionChangeListener implements MessageListener<String, byte[]>, ConsumerAwareRebalanceListener {
    private static final Logger log = LoggerFactory.getLogger(McpConnectionChangeListener.class);
    private static final Set<String> CONNECTION_CHANGES = Set.of(EventTypeHeader.wireName(ToolConnectionUpserted.class),
            EventTypeHeader.wireName(ToolConnectionDeleted.class));

    private final McpConnectionCache cache;
    private final Deserializer<EventEnvelope> events = Topics.EVENTS.valueSerde().deserializer();

    McpConnectionChangeListener(McpConnectionCache cache) {
        this.cache = cache;
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
            // unreadable: it may have been an mcp change, so nothing cached may be trusted any more
            log.warn("unreadable event at {}-{}@{}; dropping the cached MCP connections", record.topic(),
                    record.partition(), record.offset());
            cache.forgetAll();
            return;
        }
        boolean mcp = envelope.event() instanceof ToolConnectionUpserted upserted
                ? upserted.connection().tool() == Tool.MCP
                : envelope.event() instanceof ToolConnectionDeleted deleted && deleted.tool() == Tool.MCP;
        if (mcp) {
            cache.changed(UUID.fromString(envelope.workspaceId()), envelope.workspaceVersion());
        }
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // resolve the starting positions now ("latest"): from here on no change can slip by
        partitions.forEach(consumer::position);
        cache.listening(!partitions.isEmpty());
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        cache.listening(false);
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        cache.listening(false);
    }
}
