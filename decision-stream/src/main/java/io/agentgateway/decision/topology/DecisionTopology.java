package io.agentgateway.decision.topology;

import io.agentgateway.decision.DecisionSettings;
import io.agentgateway.decision.outcome.Outcome;
import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.JsonSerde;
import io.agentgateway.schemas.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The decision stream as a plain function of the commands log:
 *
 * <pre>
 *   gateway.commands.v1 ──▶ decide ──▶ gateway.events.v1
 *                             │   ├──▶ gateway.notifications.v1
 *          workspace-state ◀──┤   └──▶ gateway.replies.v1 (partition named by the command)
 *       processed-commands ◀──┤
 *       webhook-deliveries ◀──┘
 * </pre>
 *
 * One processor does all the work so that a command's state change, its dedupe record and its output
 * happen in one step, in the workspace's log order. No record cache holds output back: every output is
 * forwarded as it is decided (the workspace state's serde only skips re-parsing bytes it has seen).
 */
public final class DecisionTopology {
    public static final String SOURCE = "commands";
    public static final String PROCESSOR = "decide";
    public static final String REPLIES_SINK = "replies";
    public static final String EVENTS_SINK = "events";
    public static final String NOTIFICATIONS_SINK = "notifications";
    public static final String WORKSPACE_STATE_STORE = "workspace-state";
    public static final String PROCESSED_COMMANDS_STORE = "processed-commands";
    public static final String WEBHOOK_DELIVERIES_STORE = "webhook-deliveries";

    private DecisionTopology() {}

    public static Topology build(DecisionSettings settings) {
        Topology topology = new Topology();
        // a new application id decides the whole log from its beginning: the log is the source of truth
        topology.addSource(AutoOffsetReset.earliest(), SOURCE, new AcceptedAtTimestampExtractor(), Serdes.String().deserializer(),
                new TolerantCommandEnvelopeDeserializer(), Topics.COMMANDS.name());
        topology.addProcessor(PROCESSOR, () -> new CommandProcessor(settings), SOURCE);
        topology.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(WORKSPACE_STATE_STORE),
                Serdes.String(), new MemoizingJsonSerde<>(WorkspaceState.class, MemoizingJsonSerde.DEFAULT_MAX_BYTES)), PROCESSOR);
        // the window only carries the retention: a command id is looked up around its own acceptedAt
        topology.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore(PROCESSED_COMMANDS_STORE, settings.dedupeRetention(),
                        settings.dedupeRetention(), false),
                Serdes.String(), new JsonSerde<>(Outcome.class)), PROCESSOR);
        // the delivery ids of recorded webhooks (dedupe per workspace and source), bounded by time
        topology.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore(WEBHOOK_DELIVERIES_STORE, WebhookDeliveries.RETENTION,
                        WebhookDeliveries.RETENTION, false),
                Serdes.String(), Serdes.Long()), PROCESSOR);
        topology.addSink(REPLIES_SINK, Topics.REPLIES.name(), Topics.REPLIES.keySerde().serializer(),
                Topics.REPLIES.valueSerde().serializer(), new ReplyPartitioner(), PROCESSOR);
        topology.addSink(EVENTS_SINK, Topics.EVENTS.name(), Topics.EVENTS.keySerde().serializer(),
                Topics.EVENTS.valueSerde().serializer(), PROCESSOR);
        topology.addSink(NOTIFICATIONS_SINK, Topics.NOTIFICATIONS.name(), Topics.NOTIFICATIONS.keySerde().serializer(),
                Topics.NOTIFICATIONS.valueSerde().serializer(), PROCESSOR);
        return topology;
    }
}
