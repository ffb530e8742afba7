package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.Topics;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;

/** The embedded default creates its keyed topics with one partition per stream thread it runs, not the services' 6. */
class EmbeddedTopicLayoutTest {

    @Test
    void keyedTopicsHaveTheEmbeddedPartitionCount() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                GatewayHarness.gateway().bootstrapServers()))) {
            List<String> keyed = List.of(Topics.COMMANDS.name(), Topics.EVENTS.name(), Topics.NOTIFICATIONS.name());
            Map<String, TopicDescription> topics = admin.describeTopics(keyed).allTopicNames().get();
            assertThat(topics.values()).allSatisfy(topic ->
                    assertThat(topic.partitions()).as(topic.name()).hasSize(EmbeddedGateway.EMBEDDED_COMMAND_PARTITIONS));
        }
    }

    @Test
    void aPartitionCountThatIsNotACountStopsTheStartWithAMessageNamingIt() throws Exception {
        var settings = LauncherSettings.ephemeral(Files.createTempDirectory("gateway-layout-"));
        assertThatThrownBy(() -> EmbeddedGateway.start(settings, Map.of("gateway.topics.command-partitions", "two")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gateway.topics.command-partitions (GATEWAY_TOPICS_COMMANDPARTITIONS) must be a whole number"
                        + " from 1 to 32767, not 'two'");
        // a number too large is refused with the same range, not "at least 1" that it is
        assertThatThrownBy(() -> EmbeddedGateway.start(settings, Map.of("gateway.topics.command-partitions", "40000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gateway.topics.command-partitions (GATEWAY_TOPICS_COMMANDPARTITIONS) must be a whole number"
                        + " from 1 to 32767, not '40000'");
    }

    /** The replication settings apply here too: the launcher creates the topics before any module could. */
    @Test
    void aConfiguredMinInsyncReplicasIsHeldAgainstTheReplicationFactor() throws Exception {
        var settings = LauncherSettings.ephemeral(Files.createTempDirectory("gateway-layout-"));
        assertThatThrownBy(() -> EmbeddedGateway.start(settings, Map.of("gateway.topics.min-insync-replicas", "2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gateway.topics.min-insync-replicas (2) cannot exceed the replication factor (1)");
    }
}
