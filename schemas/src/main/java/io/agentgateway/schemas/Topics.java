package io.agentgateway.schemas;

import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.kafka.JsonSerde;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Every topic of the gateway with its key and value types, in one place. */
public final class Topics {

    /** A topic name with the serdes of its keys and values. */
    public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {}

    /** Every command, keyed by workspace id: the source of truth, one total order per workspace. */
    public static final Topic<String, CommandEnvelope> COMMANDS =
            new Topic<>("gateway.commands.v1", Serdes.String(), new JsonSerde<>(CommandEnvelope.class));

    /**
     * Answers to synchronous commands, keyed by command id. Each ingress instance owns one partition
     * (named in the command's envelope) and reads it without a consumer group.
     */
    public static final Topic<String, Reply> REPLIES =
            new Topic<>("gateway.replies.v1", Serdes.String(), new JsonSerde<>(Reply.class));

    /** Domain events, keyed by workspace id; the projector builds the read models from them. */
    public static final Topic<String, EventEnvelope> EVENTS =
            new Topic<>("gateway.events.v1", Serdes.String(), new JsonSerde<>(EventEnvelope.class));

    /** Notifications to deliver (email, chat), keyed by workspace id. */
    public static final Topic<String, NotificationRequested> NOTIFICATIONS =
            new Topic<>("gateway.notifications.v1", Serdes.String(), new JsonSerde<>(NotificationRequested.class));

    /** Notifications whose delivery failed after the last retry, with the error in headers. */
    public static final Topic<String, NotificationRequested> NOTIFICATIONS_DEAD_LETTER =
            new Topic<>("gateway.notifications.dlt.v1", Serdes.String(), new JsonSerde<>(NotificationRequested.class));

    public static final List<Topic<?, ?>> ALL =
            List.of(COMMANDS, REPLIES, EVENTS, NOTIFICATIONS, NOTIFICATIONS_DEAD_LETTER);

    private Topics() {}
}
