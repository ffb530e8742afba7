package io.agentgateway.backtest;

import static io.agentgateway.backtest.RecordedHistory.byDefault;
import static io.agentgateway.backtest.RecordedHistory.matched;
import static io.agentgateway.backtest.RecordedHistory.policy;
import static io.agentgateway.backtest.RecordedHistory.tools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The back-test reading a real (embedded) broker: partitioning, other workspaces, bad records, transactions, failures. */
class BacktesterBrokerTest {
    private static final Instant EPOCH = Instant.EPOCH;
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final Backtester.Limits LIMITS = new Backtester.Limits(Duration.ofSeconds(10), Duration.ofSeconds(30), 5);
    private static String bootstrap;
    private final String topic = "backtest-test-" + UUID.randomUUID();

    @BeforeAll
    static void broker() {
        bootstrap = SharedTestInfra.kafka().bootstrapServers();
    }

    @Test
    void readsTheWorkspacesPartitionSkippingOthersBadRecordsAndAbortedTransactions() throws Exception {
        createTopic(6);
        RecordedHistory history = new RecordedHistory().created();
        Policy blockDocs = policy("no docs", 10, Decision.BLOCK, tools(Tool.DOCS));
        history.policy(blockDocs);
        for (int i = 0; i < 50; i++) {
            history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a" + i % 3, Decision.BLOCK, matched(blockDocs), blockDocs);
            history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "a" + i % 3, Decision.ALLOW,
                    byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        }
        // another workspace on the same partition, whose records must be skipped
        RecordedHistory neighbour = new RecordedHistory();
        while (WorkspacePartition.of(neighbour.workspaceId, 6) != WorkspacePartition.of(history.workspaceId, 6)) {
            neighbour = new RecordedHistory();
        }
        neighbour.created().evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "x", Decision.ALLOW,
                byDefault(RiskLevel.LOW, Decision.ALLOW), null);

        Set<Integer> partitions = new HashSet<>();
        try (KafkaProducer<String, byte[]> producer = producer(Map.of())) {
            for (int i = 0; i < history.events.size(); i++) {
                partitions.add(producer.send(record(history.workspaceId, encode(history.events.get(i)))).get().partition());
                if (i < neighbour.events.size()) {
                    producer.send(record(neighbour.workspaceId, encode(neighbour.events.get(i)))).get();
                }
            }
            producer.send(record(history.workspaceId, "{not json".getBytes(StandardCharsets.UTF_8))).get();
        }
        // a decision in an aborted transaction never happened: reading it would be a mismatch
        EventEnvelope aborted = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a0", Decision.ALLOW,
                byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        try (KafkaProducer<String, byte[]> transactional = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bt-" + UUID.randomUUID()))) {
            transactional.initTransactions();
            transactional.beginTransaction();
            transactional.send(record(history.workspaceId, encode(aborted))).get();
            transactional.abortTransaction();
        }
        EventEnvelope last = history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "a0", Decision.ALLOW,
                byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        try (KafkaProducer<String, byte[]> producer = producer(Map.of())) {
            producer.send(record(history.workspaceId, encode(last))).get();
        }

        BacktestReport report = backtester().run(new BacktestRequest(history.workspaceId, List.of(), EPOCH, FAR));

        assertThat(partitions).containsExactly(report.history().partition());
        assertThat(report.history().topic()).isEqualTo(topic);
        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(101, 50, 51, 0));
        assertThat(report.transitions()).containsExactly(new BacktestReport.Transition(Decision.BLOCK, Decision.ALLOW, 50));
        assertThat(report.history().undecodable()).isEqualTo(1);
        assertThat(report.history().workspaceEvents()).isEqualTo(history.events.size() - 1);
        assertThat(report.history().recordsRead()).isEqualTo(history.events.size() - 1 + neighbour.events.size() + 1);
        assertThat(report.history().versionGaps()).isZero();
    }

    @Test
    void aWorkspaceWithoutEventsIsAnEmptyReport() {
        createTopic(3);
        BacktestReport report = backtester().run(new BacktestRequest(UUID.randomUUID().toString(), List.of(), EPOCH, FAR));
        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(0, 0, 0, 0));
    }

    @Test
    void aMissingTopicMeansTheLogIsUnavailable() {
        assertThatThrownBy(() -> backtester().run(new BacktestRequest(UUID.randomUUID().toString(), List.of(), EPOCH, FAR)))
                .isInstanceOf(EventLogUnavailableException.class)
                .hasMessageContaining("does not exist");
    }

    @Test
    void anUnreachableBrokerIsUnavailableWithinTheConnectTimeout() {
        Backtester unreachable = new Backtester(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + FreePorts.pick()),
                new Backtester.Limits(Duration.ofSeconds(1), Duration.ofSeconds(30), 5), topic);
        long started = System.nanoTime();
        assertThatThrownBy(() -> unreachable.run(new BacktestRequest(UUID.randomUUID().toString(), List.of(), EPOCH, FAR)))
                .isInstanceOf(EventLogUnavailableException.class)
                .hasMessageContaining("did not answer within PT1S");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aReadThatTakesLongerThanTheLimitTimesOut() throws Exception {
        createTopic(1);
        RecordedHistory history = new RecordedHistory().created();
        try (KafkaProducer<String, byte[]> producer = producer(Map.of())) {
            producer.send(record(history.workspaceId, encode(history.events.get(0)))).get();
        }
        Backtester impatient = new Backtester(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new Backtester.Limits(Duration.ofSeconds(10), Duration.ofMillis(1), 5), topic);
        assertThatThrownBy(() -> impatient.run(new BacktestRequest(history.workspaceId, List.of(), EPOCH, FAR)))
                .isInstanceOf(EventLogTimeoutException.class)
                .hasMessageContaining("PT0.001S");
    }

    private Backtester backtester() {
        return new Backtester(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), LIMITS, topic);
    }

    private void createTopic(int partitions) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
            // created is not yet visible: the broker's metadata catches up a moment later, and a reader
            // asking before then would find no topic
            Awaitility.await("topic " + topic + " led on every partition").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).until(() -> everyPartitionLed(admin, partitions));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean everyPartitionLed(Admin admin, int partitions) {
        try {
            var description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().size() == partitions
                    && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        } catch (Exception notYet) {
            return false;
        }
    }

    private KafkaProducer<String, byte[]> producer(Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        config.putAll(extra);
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    private ProducerRecord<String, byte[]> record(String key, byte[] value) {
        return new ProducerRecord<>(topic, key, value);
    }

    private byte[] encode(EventEnvelope envelope) {
        return Topics.EVENTS.valueSerde().serializer().serialize(topic, envelope);
    }
}
