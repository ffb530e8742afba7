package io.agentgateway.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.kafka.TopicProvisioner.Layout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

class TopicProvisionerTest {
    private final List<NewTopic> topics = TopicProvisioner.newTopics(new Layout(6, 4, (short) 1));

    @Test
    void createsEveryTopicOfTheRegistry() {
        assertThat(topics).extracting(NewTopic::name)
                .containsExactlyInAnyOrderElementsOf(Topics.ALL.stream().map(Topics.Topic::name).toList());
        assertThat(topics).extracting(NewTopic::name).containsExactlyInAnyOrder(
                "gateway.commands.v1", "gateway.events.v1", "gateway.notifications.v1",
                "gateway.notifications.dlt.v1", "gateway.replies.v1");
    }

    @Test
    void partitionsFollowTheLayout() {
        Map<String, Integer> partitions = topics.stream().collect(Collectors.toMap(NewTopic::name, NewTopic::numPartitions));
        assertThat(partitions).containsExactlyInAnyOrderEntriesOf(Map.of(
                Topics.COMMANDS.name(), 6,
                // events and notifications are keyed by workspace like the commands: same partition count
                Topics.EVENTS.name(), 6,
                Topics.NOTIFICATIONS.name(), 6,
                Topics.NOTIFICATIONS_DEAD_LETTER.name(), 1,
                // one reply partition per ingress instance
                Topics.REPLIES.name(), 4));
    }

    @Test
    void aDifferentLayoutChangesCountsAndReplication() {
        List<NewTopic> other = TopicProvisioner.newTopics(new Layout(12, 2, (short) 3));
        assertThat(other).allSatisfy(t -> assertThat(t.replicationFactor()).isEqualTo((short) 3));
        assertThat(topic(other, Topics.COMMANDS.name()).numPartitions()).isEqualTo(12);
        assertThat(topic(other, Topics.REPLIES.name()).numPartitions()).isEqualTo(2);
    }

    @Test
    void replicationIsDerivedFromTheCluster() {
        // nothing configured: min(3, brokers) replicas, one fewer in sync (at least one)
        assertThat(TopicProvisioner.Replication.of(1, (short) 0, 0)).isEqualTo(new TopicProvisioner.Replication((short) 1, 1));
        assertThat(TopicProvisioner.Replication.of(2, (short) 0, 0)).isEqualTo(new TopicProvisioner.Replication((short) 2, 1));
        assertThat(TopicProvisioner.Replication.of(3, (short) 0, 0)).isEqualTo(new TopicProvisioner.Replication((short) 3, 2));
        assertThat(TopicProvisioner.Replication.of(7, (short) 0, 0)).isEqualTo(new TopicProvisioner.Replication((short) 3, 2));
        // configured values win
        assertThat(TopicProvisioner.Replication.of(5, (short) 5, 3)).isEqualTo(new TopicProvisioner.Replication((short) 5, 3));
        assertThatThrownBy(() -> TopicProvisioner.Replication.of(3, (short) 2, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min-insync-replicas");
    }

    @Test
    void everyTopicGetsMinInsyncReplicas() {
        List<NewTopic> replicated = TopicProvisioner.newTopics(new Layout(6, 4, (short) 0),
                new TopicProvisioner.Replication((short) 3, 2));
        assertThat(replicated).allSatisfy(t -> {
            assertThat(t.replicationFactor()).isEqualTo((short) 3);
            assertThat(t.configs()).containsEntry(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2");
        });
        assertThat(topic(replicated, Topics.COMMANDS.name()).configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "-1");
    }

    @Test
    void theLogIsKeptAndRepliesExpire() {
        assertThat(retention(Topics.COMMANDS.name())).contains("-1");
        assertThat(retention(Topics.EVENTS.name())).contains("-1");
        assertThat(retention(Topics.NOTIFICATIONS_DEAD_LETTER.name())).contains("-1");
        assertThat(retention(Topics.REPLIES.name())).contains("3600000");
    }

    private Optional<String> retention(String name) {
        Map<String, String> configs = topic(topics, name).configs();
        return Optional.ofNullable(configs).map(c -> c.get(TopicConfig.RETENTION_MS_CONFIG));
    }

    private static NewTopic topic(List<NewTopic> topics, String name) {
        return topics.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }
}
