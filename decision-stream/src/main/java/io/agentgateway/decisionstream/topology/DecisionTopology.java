package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceCounters;
import io.agentgateway.schemas.kafka.JsonSerde;
import io.agentgateway.schemas.Topics;
import io.agentgateway.gatewaytracing.GatewayTracing;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The decision stream as a plain function of the commands log:
 *
 * <pre>
 *   gateway.commands.v1 ──▶ decide ──▶ gateway.events.v1
 *                             │   ├──▶ gateway.notifications.v1
 *                             │   └──▶ gateway.replies.v1 (partition named by the command)
 *   workspace-config, workspace-counters, api-keys, api-key-ids, approvals, expiry-index, evidence-log ◀──┤
 *                                            processed-commands-v2, webhook-deliveries ◀──┘
 * </pre>
 *
 * One processor does all the work so that a command's state change, its dedupe record and its output
 * happen in one step, in the workspace's log order; its stream-time punctuator sweeps the expiry index.
 * No record cache holds output back: every output is forwarded as it is decided. The workspace state is
 * kept at the grain that changes together ({@link WorkspaceStores}); every store's changelog has its
 * configuration set explicitly ({@link ChangelogTopics}).
 */
public final class DecisionTopology {
    public static final String SOURCE = "commands";
    public static final String PROCESSOR = "decide";
    public static final String REPLIES_SINK = "replies";
    public static final String EVENTS_SINK = "events";
    public static final String NOTIFICATIONS_SINK = "notifications";
    public static final String WORKSPACE_CONFIG_STORE = "workspace-config";
    public static final String WORKSPACE_COUNTERS_STORE = "workspace-counters";
    public static final String API_KEYS_STORE = "api-keys";
    public static final String API_KEY_IDS_STORE = "api-key-ids";
    public static final String APPROVALS_STORE = "approvals";
    public static final String EXPIRY_INDEX_STORE = "expiry-index";
    /** The second format of this store (outcomes without what a redelivery derives again): a new name, a new changelog. */
    public static final String PROCESSED_COMMANDS_STORE = "processed-commands-v2";
    public static final String WEBHOOK_DELIVERIES_STORE = "webhook-deliveries";
    /** Each workspace's Merkle log: its compact range and checkpoint bookkeeping ({@link EvidenceLogs}). */
    public static final String EVIDENCE_LOG_STORE = "evidence-log";
    /** Every store, for the tests and tools that look at them all. */
    public static final List<String> STORES = List.of(WORKSPACE_CONFIG_STORE, WORKSPACE_COUNTERS_STORE,
            API_KEYS_STORE, API_KEY_IDS_STORE, APPROVALS_STORE, EXPIRY_INDEX_STORE, PROCESSED_COMMANDS_STORE,
            WEBHOOK_DELIVERIES_STORE, EVIDENCE_LOG_STORE);

    private DecisionTopology() {}

    /** Without sealing the Merkle log (tests of everything else). */
    public static Topology build(DecisionSettings settings) {
        return build(settings, ReplyRoute.KAFKA);
    }

    /** @param replies where replies go: the replies topic, or a caller in this process ({@link ReplyRoute}) */
    public static Topology build(DecisionSettings settings, ReplyRoute replies) {
        return build(settings, replies, GatewayTracing.disabled(), EvidenceSettings.disabled());
    }

    /**
     * @param tracing while on, each command is decided in a span that continues the command record's
     *                {@code traceparent}, and every record it causes carries that span's (the processor's span, see {@code OutcomeEmitter})
     */
    public static Topology build(DecisionSettings settings, ReplyRoute replies, GatewayTracing tracing) {
        return build(settings, replies, tracing, EvidenceSettings.disabled());
    }

    /**
     * @param evidence how each workspace's Merkle log is sealed and checkpointed; the store is there whether sealing is
     *                 on or off, so switching it changes no topology
     */
    public static Topology build(DecisionSettings settings, ReplyRoute replies, EvidenceSettings evidence) {
        return build(settings, replies, GatewayTracing.disabled(), evidence);
    }

    /** With the decisions' spans as {@code tracing} says and the Merkle logs sealed as {@code evidence} says. */
    public static Topology build(DecisionSettings settings, ReplyRoute replies, GatewayTracing tracing,
                                 EvidenceSettings evidence) {
        Topology topology = new Topology();
        // a new application id decides the whole log from its beginning: the log is the source of truth
        topology.addSource(AutoOffsetReset.earliest(), SOURCE, new AcceptedAtTimestampExtractor(), Serdes.String().deserializer(),
                new TolerantCommandEnvelopeDeserializer(), Topics.COMMANDS.name());
        topology.addProcessor(PROCESSOR, () -> new CommandProcessor(settings, replies, tracing, evidence), SOURCE);
        stores(settings).forEach(store -> topology.addStateStore(store, PROCESSOR));
        topology.addSink(REPLIES_SINK, Topics.REPLIES.name(), Topics.REPLIES.keySerde().serializer(),
                Topics.REPLIES.valueSerde().serializer(), new ReplyPartitioner(), PROCESSOR);
        topology.addSink(EVENTS_SINK, Topics.EVENTS.name(), Topics.EVENTS.keySerde().serializer(),
                Topics.EVENTS.valueSerde().serializer(), PROCESSOR);
        topology.addSink(NOTIFICATIONS_SINK, Topics.NOTIFICATIONS.name(), Topics.NOTIFICATIONS.keySerde().serializer(),
                Topics.NOTIFICATIONS.valueSerde().serializer(), PROCESSOR);
        return topology;
    }

    /** The processor's stores, as the topology adds them (each with its changelog's configuration). */
    static List<StoreBuilder<?>> stores(DecisionSettings settings) {
        return List.of(
                // the configuration as its JSON bytes: the processor parses it once per change (ConfigCache) and knows its size
                keyed(WORKSPACE_CONFIG_STORE, Serdes.ByteArray()),
                keyed(WORKSPACE_COUNTERS_STORE, new JsonSerde<>(WorkspaceCounters.class)),
                keyed(API_KEYS_STORE, new JsonSerde<>(ApiKeyGrant.class)),
                keyed(API_KEY_IDS_STORE, Serdes.String()),
                keyed(APPROVALS_STORE, new JsonSerde<>(PendingApproval.class)),
                keyed(EXPIRY_INDEX_STORE, Serdes.ByteArray()),
                // written back at commits (the record cache): durable at once in each decision's processed-commands record
                keyed(EVIDENCE_LOG_STORE, Serdes.ByteArray()).withCachingEnabled(),
                // the window only carries the retention: a command id is looked up around its own acceptedAt
                Stores.windowStoreBuilder(
                        Stores.persistentWindowStore(PROCESSED_COMMANDS_STORE, settings.dedupeRetention(),
                                settings.dedupeRetention(), false),
                        Serdes.String(), new JsonSerde<>(StoredOutcome.class))
                        .withLoggingEnabled(ChangelogTopics.processedCommands(settings)),
                // the delivery ids of recorded webhooks (dedupe per workspace and source), bounded by time
                Stores.windowStoreBuilder(
                        Stores.persistentWindowStore(WEBHOOK_DELIVERIES_STORE, WebhookDeliveries.RETENTION,
                                WebhookDeliveries.RETENTION, false),
                        Serdes.String(), Serdes.Long())
                        .withLoggingEnabled(ChangelogTopics.windowed(WebhookDeliveries.RETENTION)));
    }

    private static <V> StoreBuilder<KeyValueStore<String, V>> keyed(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values)
                .withLoggingEnabled(ChangelogTopics.keyed());
    }
}
