package io.agentgateway.launcher.faults;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.decisionstream.topology.DecisionTopology;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.schemas.Topics;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/**
 * The embedded default answers its callers in process (issue 19): the decision stream hands the ingress its
 * reply once what the decision wrote is acknowledged by the broker, and writes no reply record for it. Fail
 * closed stays: a decision whose events the broker cannot acknowledge is never answered, even though the
 * stream made it in this very process.
 */
class LocalRepliesTest {
    private static final String PROCESSED_COMMANDS_CHANGELOG =
            StreamsOptions.DEFAULT_APPLICATION_ID + "-" + DecisionTopology.PROCESSED_COMMANDS_STORE + "-changelog";

    @Test
    void aCoLocatedCallerIsAnsweredInProcessWithoutAReplyRecord() throws Exception {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        LocalReplyChannel channel = gateway.localReplies();
        assertThat(channel).as("the embedded default shares a reply channel").isNotNull();
        TestWorkspace ws = GatewayHarness.newWorkspace();
        try (Admin admin = admin(gateway)) {
            TopicPartition ownReplies = new TopicPartition(Topics.REPLIES.name(), 0);
            long repliesBefore = endOffset(admin, ownReplies);
            long deliveredBefore = channel.deliveredCount();

            for (int i = 0; i < 5; i++) {
                var r = evaluate(ws, action("chat", "message.send", "low"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.text("decision")).isEqualTo("allow");
            }

            assertThat(channel.deliveredCount() - deliveredBefore).isGreaterThanOrEqualTo(5);
            assertThat(endOffset(admin, ownReplies)).as("reply records on the ingress's partition").isEqualTo(repliesBefore);
        }
    }

    /**
     * The broker refuses the decision's event (the events topic takes no record that large) while it takes the
     * command and the stream's changelog writes. (Not {@code min.insync.replicas=2} on one broker: Kafka 4 caps the
     * required in-sync replicas at the replica count, so a single broker acknowledges anyway.) The stream fails its
     * task and rebuilds; the caller gets its 504, never the decision.
     */
    @Test
    void aDecisionWhoseEventsAreNotDurableIsNeverAnswered() throws Exception {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow");
        ConfigResource events = new ConfigResource(ConfigResource.Type.TOPIC, Topics.EVENTS.name());
        try (Admin admin = admin(gateway)) {
            String maxBytes = admin.describeConfigs(List.of(events)).all().get().get(events)
                    .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value();
            TopicPartition changelog = new TopicPartition(PROCESSED_COMMANDS_CHANGELOG, partitionOf(admin, ws));
            long decidedBefore = endOffset(admin, changelog);
            // an ActionEvaluated record is larger than this: no write to the events topic can be acknowledged
            setTopicConfig(admin, events, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "64");
            try {
                var r = evaluate(ws, action("chat", "message.send", "low"));

                assertThat(r.status()).isIn(503, 504);
                assertThat(r.body().get("ok").asBoolean()).isFalse();
                assertThat(r.text("decision")).isNull();
                assertThat(r.text("correlationId")).isNotBlank();
                // ...although the stream decided it: its dedupe record reached the changelog
                assertThat(endOffset(admin, changelog)).isGreaterThan(decidedBefore);
            } finally {
                setTopicConfig(admin, events, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, maxBytes);
            }
        }
        // the broker takes the events again: the decision made meanwhile is kept, and callers are answered again
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(auditRows(ws)).isGreaterThanOrEqualTo(3));
    }

    private static Admin admin(EmbeddedGateway gateway) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, gateway.bootstrapServers()));
    }

    private static void setTopicConfig(Admin admin, ConfigResource topic, String key, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                new ConfigEntry(key, value), AlterConfigOp.OpType.SET)))).all().get();
        await().atMost(Duration.ofSeconds(10)).until(() -> value.equals(admin.describeConfigs(List.of(topic)).all().get()
                .get(topic).get(key).value()));
    }

    private static long endOffset(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
    }

    /** The changelog partition of the workspace's task: the commands partition its key hashes to. */
    private static int partitionOf(Admin admin, TestWorkspace ws) throws Exception {
        int partitions = admin.describeTopics(List.of(Topics.COMMANDS.name())).allTopicNames().get()
                .get(Topics.COMMANDS.name()).partitions().size();
        return org.apache.kafka.common.utils.Utils.toPositive(
                org.apache.kafka.common.utils.Utils.murmur2(ws.id().getBytes(java.nio.charset.StandardCharsets.UTF_8))) % partitions;
    }

    private static long auditRows(TestWorkspace ws) throws Exception {
        try (Connection db = GatewayHarness.db();
             var statement = db.prepareStatement("select count(*) from audit_log where workspace_id = ?::uuid")) {
            statement.setString(1, ws.id());
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
