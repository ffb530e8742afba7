package io.agentgateway.decisionstream.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisionstream.DecisionStreamApplication;
import io.agentgateway.decisionstream.config.DecisionStreamHealthIndicator;
import io.agentgateway.decisionstream.config.DecisionStreamReadinessIndicator;
import io.agentgateway.decisionstream.config.DecisionStreamLifecycle;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/** The decision stream on the real (embedded) broker: one request-reply round trip per guarantee. */
class DecisionStreamBrokerTest {
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(30);
    private static String bootstrap;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void topics() {
        bootstrap = BrokerScenario.brokerWithGatewayTopics();
    }

    @Test
    void the_runner_answers_on_the_named_reply_partition() throws Exception {
        StreamsOptions options = new StreamsOptions("decision-it-" + UUID.randomUUID(), ProcessingGuarantee.AT_LEAST_ONCE,
                null, null, stateDir.toString(), 1, (short) 1, 1, 5, 5);
        try (DecisionStreamRunner runner = new DecisionStreamRunner(DecisionSettings.defaults(),
                DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options));
                CommandClient client = new CommandClient(bootstrap, 3)) {
            runner.start();
            runner.awaitRunning(STARTUP);
            assertThat(runner.isRunning()).isTrue();

            BrokerScenario scenario = new BrokerScenario(3);
            assertThat(client.request(scenario.createWorkspace(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            assertThat(client.request(scenario.issueKey(), REPLY).status()).isEqualTo(ReplyStatus.OK);

            CommandEnvelope evaluate = scenario.evaluate();
            client.send(evaluate);
            ConsumerRecord<String, Reply> record = client.awaitReply(evaluate.commandId(), REPLY);
            assertThat(record.partition()).isEqualTo(3);
            assertThat(record.value().status()).isEqualTo(ReplyStatus.OK);
            assertThat(record.value().evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            assertThat(record.value().evaluation().riskClassification()).isEqualTo(RiskClassification.SERVER_CLASSIFIED);
            assertThat(record.value().evaluation().riskLevel()).isEqualTo(RiskLevel.HIGH);
        }
    }

    @Test
    void the_application_runs_exactly_once_and_reports_health() throws Exception {
        try (ConfigurableApplicationContext context = DecisionStreamApplication.builder().run(
                "--spring.kafka.bootstrap-servers=" + bootstrap,
                "--gateway.decision.application-id=decision-app-it-" + UUID.randomUUID(),
                "--gateway.decision.processing-guarantee=exactly_once_v2",
                "--gateway.decision.state-dir=" + stateDir,
                "--gateway.decision.close-timeout=PT5S");
                CommandClient client = new CommandClient(bootstrap, 1)) {
            DecisionStreamLifecycle lifecycle = context.getBean(DecisionStreamLifecycle.class);
            lifecycle.awaitRunning(STARTUP);
            assertThat(lifecycle.isStreamsRunning()).isTrue();
            assertThat(context.getBean(DecisionStreamHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);

            BrokerScenario scenario = new BrokerScenario(1);
            assertThat(client.request(scenario.createWorkspace(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            assertThat(client.request(scenario.issueKey(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            Reply reply = client.request(scenario.evaluate(), REPLY);
            assertThat(reply.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            // ready: it decides, for every partition here (the only instance)
            var readiness = context.getBean(DecisionStreamReadinessIndicator.class).health();
            assertThat(readiness.getStatus()).isEqualTo(Status.UP);
            assertThat(readiness.getDetails()).containsEntry("activeTasks", lifecycle.activeTaskCount());
            assertThat(lifecycle.activeTaskCount()).isPositive();

            context.stop();
            assertThat(lifecycle.isStreamsRunning()).isFalse();
            assertThat(context.getBean(DecisionStreamHealthIndicator.class).health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(context.getBean(DecisionStreamReadinessIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
        }
    }

    /**
     * Under exactly-once a clean restart resumes every task from its local stores: nothing is restored. Most tasks
     * hold a store whose changelog is still empty (no webhook ever reached their workspaces): Kafka 4.3's Streams keeps
     * no offset for such a store, takes the task for corrupted at every restart or move, wipes it and restores it from
     * scratch, and under failover that became a loop of wipes and rebalances (the fault suite, issue 17).
     */
    @Test
    void an_exactly_once_restart_keeps_the_local_state_of_tasks_with_an_empty_store() throws Exception {
        StreamsOptions options = new StreamsOptions("decision-eos-restart-it-" + UUID.randomUUID(),
                ProcessingGuarantee.EXACTLY_ONCE_V2, null, null, stateDir.toString(), 1, (short) 1, 1, 5, 5);
        BrokerScenario scenario = new BrokerScenario(2);
        try (CommandClient client = new CommandClient(bootstrap, 2)) {
            try (DecisionStreamRunner first = new DecisionStreamRunner(DecisionSettings.defaults(),
                    DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options))) {
                first.start();
                first.awaitRunning(STARTUP);
                assertThat(client.request(scenario.createWorkspace(), REPLY).status()).isEqualTo(ReplyStatus.OK);
                assertThat(client.request(scenario.issueKey(), REPLY).status()).isEqualTo(ReplyStatus.OK);
                assertThat(client.request(scenario.evaluate(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            }

            AtomicLong restored = new AtomicLong();
            try (DecisionStreamRunner second = new DecisionStreamRunner(DecisionSettings.defaults(),
                    DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options))) {
                second.restoreListener(new StateRestoreListener() {
                    @Override
                    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
                    }

                    @Override
                    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
                        restored.addAndGet(numRestored);
                    }

                    @Override
                    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                    }
                });
                second.start();
                second.awaitRunning(STARTUP);
                // the workspace and its key are still there
                assertThat(client.request(scenario.evaluate(), REPLY).evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            }
            assertThat(restored.get()).as("records restored from the changelogs after a clean restart").isZero();
        }
    }
}
