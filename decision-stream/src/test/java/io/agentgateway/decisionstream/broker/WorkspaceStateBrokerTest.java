package io.agentgateway.decisionstream.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceCounters;
import io.agentgateway.decisionstream.topology.DecisionTopology;
import io.agentgateway.decisionstream.topology.TestWorkspace;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.SetKillSwitch;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's scenario on the real (embedded) broker. Before, a workspace of ~4,400 open approvals was one
 * JSON value over 1 MiB: its changelog write failed, the kill switch was answered "internal error" and the
 * local store kept a change its changelog never got. Now a workspace of 10,000 open approvals (the default
 * limit) takes the kill switch, every changelog record stays small, and a replica restoring on an empty state
 * directory has the same state. And when a changelog write does fail, nobody is told "internal error": the
 * stream rebuilds its stores from the changelogs, and the change is in effect once it is durable.
 */
class WorkspaceStateBrokerTest {
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration REPLY = Duration.ofSeconds(60);
    private static final int OPEN_APPROVALS = 10_000;
    private static String bootstrap;

    @TempDir
    Path firstStateDir;
    @TempDir
    Path emptyStateDir;

    @BeforeAll
    static void topics() {
        bootstrap = BrokerScenario.brokerWithGatewayTopics();
    }

    @Test
    void ten_thousand_open_approvals_take_the_kill_switch_and_a_fresh_replica_restores_them_all() {
        String applicationId = "decision-scale-it-" + UUID.randomUUID();
        Workspace workspace = new Workspace(2);
        List<String> approvalIds = new ArrayList<>();
        try (DecisionStreamRunner runner = runner(applicationId, firstStateDir, 200);
                CommandClient client = new CommandClient(bootstrap, 2)) {
            runner.start();
            runner.awaitRunning(STARTUP);
            assertThat(client.request(workspace.create(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            assertThat(client.request(workspace.issueKey(), REPLY).status()).isEqualTo(ReplyStatus.OK);

            // fill: held evaluations sent in bulk, nobody waiting for their replies
            List<CommandEnvelope> held = new ArrayList<>();
            for (int i = 0; i < OPEN_APPROVALS; i++) {
                CommandEnvelope envelope = workspace.unanswered(workspace.evaluate(RiskLevel.HIGH));
                held.add(envelope);
                approvalIds.add(DerivedIds.approvalId(envelope.commandId()));
            }
            client.sendAll(held);
            Reply atTheLimit = client.request(workspace.answered(workspace.evaluate(RiskLevel.HIGH)), Duration.ofMinutes(3));
            assertThat(atTheLimit.evaluation().decision()).as("the limit is reached: held calls are blocked").isEqualTo(Decision.BLOCK);
            assertThat(atTheLimit.evaluation().reason()).contains("limit of 10000 open approval requests");

            Reply killed = client.request(workspace.answered(new SetKillSwitch(KillSwitchAction.ENABLE, null)), REPLY);
            assertThat(killed.status()).isEqualTo(ReplyStatus.OK);
            Reply blocked = client.request(workspace.answered(workspace.evaluate(RiskLevel.LOW)), REPLY);
            assertThat(blocked.evaluation().decision()).isEqualTo(Decision.BLOCK);
            assertThat(blocked.evaluation().reason()).isEqualTo("Workspace kill switch is enabled");
            assertThat(approvalsOf(runner, workspace.id)).hasSize(OPEN_APPROVALS).containsAll(approvalIds.subList(0, 10));
        }

        assertThat(largestChangelogRecord(applicationId)).as("every changelog record far under the broker's 1 MiB")
                .isLessThan(8 * 1024);

        // a new replica: the same application id on an empty state directory restores from the changelogs
        try (DecisionStreamRunner replica = runner(applicationId, emptyStateDir, 200);
                CommandClient client = new CommandClient(bootstrap, 2)) {
            replica.start();
            replica.awaitRunning(STARTUP);
            assertThat(approvalsOf(replica, workspace.id)).hasSize(OPEN_APPROVALS).containsAll(approvalIds);
            ReadOnlyKeyValueStore<String, WorkspaceCounters> counters =
                    replica.queryableStore(DecisionTopology.WORKSPACE_COUNTERS_STORE, QueryableStoreTypes.keyValueStore());
            assertThat(counters.get(workspace.id).openApprovals()).isEqualTo(OPEN_APPROVALS);

            Reply stillKilled = client.request(workspace.answered(workspace.evaluate(RiskLevel.LOW)), REPLY);
            assertThat(stillKilled.evaluation().reason()).isEqualTo("Workspace kill switch is enabled");
            Reply reviewed = client.request(workspace.answered(
                    new ReviewApproval(approvalIds.get(OPEN_APPROVALS - 1), ReviewVerdict.REJECT, "restored")), REPLY);
            assertThat(reviewed.status()).as("the last approval opened is there to review").isEqualTo(ReplyStatus.OK);
        }
    }

    @Test
    void a_failed_changelog_write_is_never_answered_and_the_change_takes_effect_once_durable() throws Exception {
        String applicationId = "decision-failure-it-" + UUID.randomUUID();
        Workspace workspace = new Workspace(1);
        try (DecisionStreamRunner runner = runner(applicationId, firstStateDir, 200);
                CommandClient client = new CommandClient(bootstrap, 1);
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            runner.start();
            runner.awaitRunning(STARTUP);
            assertThat(client.request(workspace.create(), REPLY).status()).isEqualTo(ReplyStatus.OK);
            assertThat(client.request(workspace.issueKey(), REPLY).status()).isEqualTo(ReplyStatus.OK);

            // every changelog refuses what the stream writes (as a broker that cannot take it would)
            setChangelogMaxMessageBytes(admin, applicationId, "100");
            client.send(workspace.answered(new SetKillSwitch(KillSwitchAction.ENABLE, null)));
            await().atMost(REPLY).until(() -> runner.rebuilds() >= 1);

            setChangelogMaxMessageBytes(admin, applicationId, "1048576");
            Reply afterRebuild = client.request(workspace.answered(workspace.evaluate(RiskLevel.LOW)), Duration.ofMinutes(2));
            assertThat(afterRebuild.evaluation().reason()).isEqualTo("Workspace kill switch is enabled");
            assertThat(client.repliesSeen()).as("a Kafka error is never a business reply")
                    .noneMatch(reply -> "internal error".equals(reply.error()));
        }

        try (DecisionStreamRunner replica = runner(applicationId, emptyStateDir, 200);
                CommandClient client = new CommandClient(bootstrap, 1)) {
            replica.start();
            replica.awaitRunning(STARTUP);
            Reply onTheReplica = client.request(workspace.answered(workspace.evaluate(RiskLevel.LOW)), REPLY);
            assertThat(onTheReplica.evaluation().reason()).as("the changelog has the change the first replica decided on")
                    .isEqualTo("Workspace kill switch is enabled");
        }
    }

    private static DecisionStreamRunner runner(String applicationId, Path stateDir, long commitIntervalMs) {
        StreamsOptions options = new StreamsOptions(applicationId, ProcessingGuarantee.AT_LEAST_ONCE, commitIntervalMs, null,
                stateDir.toString(), 1, (short) 1, 1, 5, 100);
        return new DecisionStreamRunner(DecisionSettings.defaults(),
                DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options));
    }

    private static List<String> approvalsOf(DecisionStreamRunner runner, String workspaceId) {
        ReadOnlyKeyValueStore<String, PendingApproval> approvals = await().atMost(REPLY).ignoreExceptions().until(
                () -> runner.queryableStore(DecisionTopology.APPROVALS_STORE, QueryableStoreTypes.<String, PendingApproval>keyValueStore()),
                store -> store != null);
        List<String> ids = new ArrayList<>();
        try (KeyValueIterator<String, PendingApproval> all = approvals.prefixScan(workspaceId + "\n",
                new org.apache.kafka.common.serialization.StringSerializer())) {
            while (all.hasNext()) {
                KeyValue<String, PendingApproval> next = all.next();
                ids.add(next.key.substring(workspaceId.length() + 1));
            }
        }
        return ids;
    }

    /** The largest value in any of the application's changelog topics. */
    private static int largestChangelogRecord(String applicationId) {
        int largest = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String store : DecisionTopology.STORES) {
                consumer.partitionsFor(applicationId + "-" + store + "-changelog")
                        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    largest = Math.max(largest, record.value() == null ? 0 : record.value().length);
                }
            }
        }
        return largest;
    }

    private static void setChangelogMaxMessageBytes(Admin admin, String applicationId, String bytes) throws Exception {
        Map<ConfigResource, java.util.Collection<AlterConfigOp>> changes = new java.util.HashMap<>();
        for (String store : DecisionTopology.STORES) {
            changes.put(new ConfigResource(ConfigResource.Type.TOPIC, applicationId + "-" + store + "-changelog"),
                    List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, bytes), AlterConfigOp.OpType.SET)));
        }
        admin.incrementalAlterConfigs(changes).all().get();
    }

    /** A fresh workspace, its owner and an evaluate key; answered commands wait on {@code replyPartition}. */
    private static final class Workspace {
        final String id = UUID.randomUUID().toString();
        final Actor owner = Actor.user("owner-" + id.substring(0, 8), "owner@example.com");
        final String keyHash = TestWorkspace.sha256("agk_" + UUID.randomUUID());
        final int replyPartition;

        Workspace(int replyPartition) {
            this.replyPartition = replyPartition;
        }

        CommandEnvelope create() {
            return envelope(owner, new CreateWorkspace("Scale test"), replyPartition);
        }

        CommandEnvelope issueKey() {
            return envelope(owner, new IssueApiKey(UUID.randomUUID().toString(), "it", keyHash, Set.of(Scope.EVALUATE), null),
                    replyPartition);
        }

        EvaluateAction evaluate(RiskLevel risk) {
            return new EvaluateAction(Tool.DOCS, risk == RiskLevel.LOW ? "page.read" : "page.publish", risk, "agent-it",
                    null, null, null, null, null, ActionSource.EVALUATE, Scope.EVALUATE, false);
        }

        CommandEnvelope answered(Command command) {
            return envelope(command instanceof EvaluateAction ? Actor.apiKey(keyHash, "agent-it") : owner, command, replyPartition);
        }

        CommandEnvelope unanswered(Command command) {
            return envelope(Actor.apiKey(keyHash, "agent-it"), command, null);
        }

        private CommandEnvelope envelope(Actor actor, Command command, Integer partition) {
            return new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), id,
                    UUID.randomUUID().toString(), Instant.now(), partition, actor, command);
        }
    }
}
