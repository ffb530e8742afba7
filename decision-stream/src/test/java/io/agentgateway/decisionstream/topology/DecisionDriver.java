package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.kafka.EventTypeHeader;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The decision topology under {@link TopologyTestDriver}: send a command, get back everything it
 * emitted. Each send drains all three output topics, so "nothing else was emitted" is an assertion on
 * the returned {@link Emitted}.
 */
public final class DecisionDriver implements AutoCloseable {
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, CommandEnvelope> commands;
    private final TestInputTopic<String, byte[]> rawCommands;
    private final TestOutputTopic<String, Reply> replies;
    private final TestOutputTopic<String, EventEnvelope> events;
    private final TestOutputTopic<String, NotificationRequested> notifications;
    private final List<EventEnvelope> eventLog = new ArrayList<>();
    private final List<CommandEnvelope> commandLog = new ArrayList<>();
    /** The headers of every record the last send emitted, by output topic name. */
    private final Map<String, List<Headers>> lastHeaders = new java.util.LinkedHashMap<>();

    public DecisionDriver(DecisionSettings settings, Path stateDir) {
        this(settings, stateDir, StreamsOptions.defaults().processingGuarantee());
    }

    /**
     * @param guarantee  the topology is the same under both; under at-least-once the driver flushes and
     *                   checkpoints the RocksDB stores after every record, which makes long histories slow
     */
    public DecisionDriver(DecisionSettings settings, Path stateDir, ProcessingGuarantee guarantee) {
        this(settings, stateDir, guarantee, ReplyRoute.KAFKA);
    }

    /** @param replyRoute where the topology sends replies (a route that takes some: no reply record for those) */
    public DecisionDriver(DecisionSettings settings, Path stateDir, ProcessingGuarantee guarantee, ReplyRoute replyRoute) {
        this(settings, stateDir, guarantee, replyRoute, GatewayTracing.disabled());
    }

    /** @param tracing where the decisions' spans go */
    public DecisionDriver(DecisionSettings settings, Path stateDir, ProcessingGuarantee guarantee, ReplyRoute replyRoute,
                          GatewayTracing tracing) {
        this(settings, stateDir, guarantee, replyRoute, tracing, EvidenceSettings.disabled(), Instant.now());
    }

    /**
     * With each workspace's Merkle log sealed as {@code evidence} says, and the driver's wall clock (the timed
     * checkpoints' punctuator) starting at {@code wallClock}.
     */
    public DecisionDriver(DecisionSettings settings, Path stateDir, EvidenceSettings evidence, Instant wallClock) {
        this(settings, stateDir, StreamsOptions.defaults().processingGuarantee(), ReplyRoute.KAFKA, GatewayTracing.disabled(),
                evidence, wallClock);
    }

    private DecisionDriver(DecisionSettings settings, Path stateDir, ProcessingGuarantee guarantee, ReplyRoute replyRoute,
                           GatewayTracing tracing, EvidenceSettings evidence, Instant wallClock) {
        StreamsOptions options = new StreamsOptions("decision-test", guarantee,
                null, null, stateDir.toString(), 1, (short) 1, 1, 5, 5);
        driver = new TopologyTestDriver(DecisionTopology.build(settings, replyRoute, tracing, evidence),
                DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"), options), wallClock);
        commands = driver.createInputTopic(Topics.COMMANDS.name(), new StringSerializer(),
                Topics.COMMANDS.valueSerde().serializer());
        rawCommands = driver.createInputTopic(Topics.COMMANDS.name(), new StringSerializer(), new ByteArraySerializer());
        replies = driver.createOutputTopic(Topics.REPLIES.name(), Topics.REPLIES.keySerde().deserializer(),
                Topics.REPLIES.valueSerde().deserializer());
        events = driver.createOutputTopic(Topics.EVENTS.name(), Topics.EVENTS.keySerde().deserializer(),
                Topics.EVENTS.valueSerde().deserializer());
        notifications = driver.createOutputTopic(Topics.NOTIFICATIONS.name(), Topics.NOTIFICATIONS.keySerde().deserializer(),
                Topics.NOTIFICATIONS.valueSerde().deserializer());
    }

    /** Sends a command keyed by its workspace, as the ingress does. */
    public Emitted send(CommandEnvelope envelope) {
        return send(envelope.workspaceId(), envelope);
    }

    public Emitted send(String key, CommandEnvelope envelope) {
        // as a reader of the commands topic gets it back
        byte[] bytes = Topics.COMMANDS.valueSerde().serializer().serialize(Topics.COMMANDS.name(), envelope);
        commandLog.add(Topics.COMMANDS.valueSerde().deserializer().deserialize(Topics.COMMANDS.name(), bytes));
        commands.pipeInput(key, envelope);
        return drain();
    }

    /** Sends a command with record headers (a trace context), as a traced ingress does. */
    public Emitted send(CommandEnvelope envelope, Headers headers) {
        commands.pipeInput(new TestRecord<>(envelope.workspaceId(), envelope, headers));
        return drain();
    }

    /** The headers of the records the last send emitted on {@code topic} (empty when none). */
    public List<Headers> lastHeaders(String topic) {
        return lastHeaders.getOrDefault(topic, List.of());
    }

    public Emitted sendRaw(String key, byte[] value) {
        rawCommands.pipeInput(key, value);
        return drain();
    }

    /** The workspaces as the stores hold them. */
    public StoredWorkspaces workspaceStates() {
        return new StoredWorkspaces(driver);
    }

    /** A workspace's open approvals, by id, read from the {@code approvals} store. */
    public Map<String, PendingApproval> approvals(String workspaceId) {
        return workspaceStates().approvals(workspaceId);
    }

    /** A workspace's keys, by hash, read from the {@code api-keys} store. */
    public Map<String, ApiKeyGrant> apiKeys(String workspaceId) {
        return workspaceStates().apiKeys(workspaceId);
    }

    public WindowStore<String, StoredOutcome> processedCommands() {
        return driver.getWindowStore(DecisionTopology.PROCESSED_COMMANDS_STORE);
    }

    /** The keys of the {@code expiry-index} store, in order. */
    public List<String> expiryIndex() {
        List<String> keys = new ArrayList<>();
        try (var all = driver.<String, byte[]>getKeyValueStore(DecisionTopology.EXPIRY_INDEX_STORE).all()) {
            all.forEachRemaining(kv -> keys.add(kv.key));
        }
        return keys;
    }

    public <V> KeyValueStore<String, V> keyValueStore(String name) {
        return driver.getKeyValueStore(name);
    }

    /** Every command sent so far (through {@link #send}), in the order of the commands topic, as read back from it. */
    public List<CommandEnvelope> commandLog() {
        return List.copyOf(commandLog);
    }

    /** Every event emitted so far, in the order of the events topic (a back-test's input). */
    public List<EventEnvelope> eventLog() {
        return List.copyOf(eventLog);
    }

    /** Moves the wall clock on (wall-clock punctuators run) and returns what they emitted. */
    public Emitted advanceWallClock(java.time.Duration duration) {
        driver.advanceWallClockTime(duration);
        return drain();
    }

    private Emitted drain() {
        lastHeaders.clear();
        Emitted emitted = new Emitted(replies.readRecordsToList().stream().map(record -> {
                    assertThat(record.key()).as("replies are keyed by command id").isEqualTo(record.value().commandId());
                    lastHeaders.computeIfAbsent(Topics.REPLIES.name(), topic -> new ArrayList<>()).add(record.headers());
                    return record.value();
                }).toList(),
                events.readRecordsToList().stream().map(record -> {
                    lastHeaders.computeIfAbsent(Topics.EVENTS.name(), topic -> new ArrayList<>()).add(record.headers());
                    assertThat(record.key()).as("events are keyed by workspace id").isEqualTo(record.value().workspaceId());
                    assertThat(EventTypeHeader.typeOf(record.headers())).as("events name their type in a header")
                            .contains(EventTypeHeader.wireName(record.value().event().getClass()));
                    return record.value();
                }).toList(),
                notifications.readRecordsToList().stream().map(record -> {
                    assertThat(record.key()).as("notifications are keyed by workspace id").isEqualTo(record.value().workspaceId());
                    lastHeaders.computeIfAbsent(Topics.NOTIFICATIONS.name(), topic -> new ArrayList<>()).add(record.headers());
                    return record.value();
                }).toList());
        eventLog.addAll(emitted.events());
        return emitted;
    }

    @Override
    public void close() {
        driver.close();
    }
}
