package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

/**
 * The events reader on a real (embedded) broker: every replica's reader sees every event of a workspace it watches (no
 * consumer group), from the end, announced by {@code Positioned}; other workspaces' and unreadable records are skipped.
 */
class LiveEventsTest {
    private static String bootstrap;
    private final List<LiveEvents> readers = new CopyOnWriteArrayList<>();
    private final List<Disposable> subscriptions = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void broker() {
        bootstrap = SharedTestInfra.kafka().bootstrapServers();
        TopicProvisioner.ensureTopics(bootstrap, new TopicProvisioner.Layout(6, 4, (short) 1, 1));
    }

    @AfterEach
    void stop() {
        subscriptions.forEach(Disposable::dispose);
        readers.forEach(LiveEvents::stop);
    }

    private LiveEvents reader() {
        LiveEvents reader = new LiveEvents(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100));
        reader.start();
        readers.add(reader);
        return reader;
    }

    private List<LiveEvents.Signal> watch(LiveEvents reader, UUID workspaceId) {
        List<LiveEvents.Signal> heard = new CopyOnWriteArrayList<>();
        subscriptions.add(reader.of(workspaceId).subscribe(heard::add));
        return heard;
    }

    private static void publish(UUID workspaceId, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.EVENTS.name(), workspaceId.toString(), value)).get();
        }
    }

    private static byte[] expired(UUID workspaceId, String approvalId) {
        EventEnvelope envelope = new EventEnvelope(EventEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                workspaceId.toString(), UUID.randomUUID().toString(), "corr", Instant.now(), Actor.system("test"), 7, 1,
                new ApprovalExpired(approvalId, Instant.now()));
        return Topics.EVENTS.valueSerde().serializer().serialize(Topics.EVENTS.name(), envelope);
    }

    private static List<String> expiredApprovals(List<LiveEvents.Signal> heard) {
        return heard.stream().filter(LiveEvents.Event.class::isInstance).map(LiveEvents.Event.class::cast)
                .map(event -> ((ApprovalExpired) event.envelope().event()).approvalId()).toList();
    }

    @Test
    void everyReplicaWatchingAWorkspaceHearsEachOfItsEventsOnceItIsPositioned() throws Exception {
        UUID workspace = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        LiveEvents first = reader();
        LiveEvents second = reader();
        List<LiveEvents.Signal> heardFirst = watch(first, workspace);
        List<LiveEvents.Signal> heardSecond = watch(second, workspace);
        await().atMost(Duration.ofSeconds(20)).until(() -> heardFirst.contains(LiveEvents.Positioned.NOW)
                && heardSecond.contains(LiveEvents.Positioned.NOW));
        assertThat(first.state(Duration.ofSeconds(10))).isEqualTo(LiveEvents.State.LIVE);

        publish(other, expired(other, "not-watched"));
        publish(workspace, "{not an envelope".getBytes(StandardCharsets.UTF_8));
        publish(workspace, expired(workspace, "a1"));
        publish(workspace, expired(workspace, "a2"));

        await().atMost(Duration.ofSeconds(10)).until(() -> expiredApprovals(heardFirst).size() == 2
                && expiredApprovals(heardSecond).size() == 2);
        assertThat(expiredApprovals(heardFirst)).containsExactly("a1", "a2");
        assertThat(expiredApprovals(heardSecond)).as("no consumer group: the other replica hears them too")
                .containsExactly("a1", "a2");
    }

    @Test
    void aReaderReadsFromTheEndAndOnlyWhileSomebodyWatches() throws Exception {
        UUID workspace = UUID.randomUUID();
        LiveEvents reader = reader();
        publish(workspace, expired(workspace, "before"));
        assertThat(reader.state(Duration.ofSeconds(10))).as("nobody watches: nothing is read")
                .isEqualTo(LiveEvents.State.STALE);

        List<LiveEvents.Signal> heard = watch(reader, workspace);
        await().atMost(Duration.ofSeconds(20)).until(() -> heard.contains(LiveEvents.Positioned.NOW));
        publish(workspace, expired(workspace, "after"));
        await().atMost(Duration.ofSeconds(10)).until(() -> !expiredApprovals(heard).isEmpty());
        assertThat(expiredApprovals(heard)).as("what happened before the watch is not replayed").containsExactly("after");
    }
}
