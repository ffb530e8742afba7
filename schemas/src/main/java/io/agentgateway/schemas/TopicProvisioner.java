package io.agentgateway.schemas;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates the gateway's topics if they are missing. Every application calls it at start-up, so the
 * services can start in any order. Existing topics are left as they are (partition counts are never
 * changed here: changing the commands topic's count would reorder workspaces).
 */
public final class TopicProvisioner {

    /** @param commandPartitions  partitions of the commands, events and notifications topics
     *  @param replyPartitions    one per ingress instance */
    public record Layout(int commandPartitions, int replyPartitions, short replicationFactor) {}

    private TopicProvisioner() {}

    public static List<NewTopic> newTopics(Layout layout) {
        List<NewTopic> topics = new ArrayList<>();
        // the log is the record of what agents did: keep it (retention is a deployment decision)
        Map<String, String> keepForever = Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1");
        topics.add(new NewTopic(Topics.COMMANDS.name(), layout.commandPartitions(), layout.replicationFactor()).configs(keepForever));
        topics.add(new NewTopic(Topics.EVENTS.name(), layout.commandPartitions(), layout.replicationFactor()).configs(keepForever));
        topics.add(new NewTopic(Topics.NOTIFICATIONS.name(), layout.commandPartitions(), layout.replicationFactor()));
        topics.add(new NewTopic(Topics.NOTIFICATIONS_DEAD_LETTER.name(), 1, layout.replicationFactor()).configs(keepForever));
        // replies matter only while someone waits
        topics.add(new NewTopic(Topics.REPLIES.name(), layout.replyPartitions(), layout.replicationFactor())
                .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "3600000")));
        return topics;
    }

    public static void ensureTopics(String bootstrapServers, Layout layout) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = newTopics(layout).stream().filter(t -> !existing.contains(t.name())).toList();
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // another service created them between list and create: that is fine
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create the gateway topics on " + bootstrapServers, e);
        }
    }
}
