package io.agentgateway.schemas.kafka;

import io.agentgateway.schemas.Topics;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates the gateway's topics if they are missing. Every application calls it at start-up, so the
 * services can start in any order. Existing topics are left as they are (partition counts are never
 * changed here: changing the commands topic's count would reorder workspaces).
 *
 * <p>Replication is decided in one place, here, the same way by every service: unless configured, a
 * topic gets {@code min(3, brokers)} replicas and {@code min.insync.replicas} one less than that (at
 * least 1). Whichever service starts first therefore creates the same topics, and the decision
 * stream gives its internal topics (changelogs) the same settings ({@link #resolveReplication}).
 * With 3 brokers, {@code acks=all} then needs 2 copies: one broker may be lost without losing writes
 * or an acknowledged record, and a second loss stops writes instead of keeping them on one copy.
 */
public final class TopicProvisioner {

    /** The replication factor of a cluster with at least this many brokers, unless configured. */
    public static final int MAX_AUTO_REPLICATION_FACTOR = 3;

    /**
     * @param commandPartitions  partitions of the commands, events and notifications topics
     * @param replyPartitions    one per ingress instance
     * @param replicationFactor  0: {@code min(3, brokers)}
     * @param minInsyncReplicas  0: one less than the replication factor, at least 1
     */
    public record Layout(int commandPartitions, int replyPartitions, short replicationFactor, int minInsyncReplicas) {

        /** With {@code min.insync.replicas} derived from the replication factor. */
        public Layout(int commandPartitions, int replyPartitions, short replicationFactor) {
            this(commandPartitions, replyPartitions, replicationFactor, 0);
        }
    }

    /** The replication every gateway topic (and the decision stream's internal topics) is created with. */
    public record Replication(short factor, int minInsyncReplicas) {

        /** The settings given a cluster of {@code brokers} and what is configured (0: derive). */
        public static Replication of(int brokers, short configuredFactor, int configuredMinInsync) {
            short factor = configuredFactor > 0 ? configuredFactor
                    : (short) Math.max(1, Math.min(MAX_AUTO_REPLICATION_FACTOR, brokers));
            int minInsync = configuredMinInsync > 0 ? configuredMinInsync : Math.max(1, factor - 1);
            if (minInsync > factor) {
                throw new IllegalArgumentException("gateway.topics.min-insync-replicas (" + minInsync
                        + ") cannot exceed the replication factor (" + factor + ")");
            }
            return new Replication(factor, minInsync);
        }
    }

    private static final System.Logger LOG = System.getLogger(TopicProvisioner.class.getName());

    private TopicProvisioner() {}

    public static List<NewTopic> newTopics(Layout layout) {
        return newTopics(layout, Replication.of(1, layout.replicationFactor(), layout.minInsyncReplicas()));
    }

    public static List<NewTopic> newTopics(Layout layout, Replication replication) {
        List<NewTopic> topics = new ArrayList<>();
        short rf = replication.factor();
        // the log is the record of what agents did: keep it (retention is a deployment decision)
        Map<String, String> keepForever = with(replication, TopicConfig.RETENTION_MS_CONFIG, "-1");
        topics.add(new NewTopic(Topics.COMMANDS.name(), layout.commandPartitions(), rf).configs(keepForever));
        topics.add(new NewTopic(Topics.EVENTS.name(), layout.commandPartitions(), rf).configs(keepForever));
        topics.add(new NewTopic(Topics.NOTIFICATIONS.name(), layout.commandPartitions(), rf).configs(with(replication, null, null)));
        topics.add(new NewTopic(Topics.NOTIFICATIONS_DEAD_LETTER.name(), 1, rf).configs(keepForever));
        // replies matter only while someone waits
        topics.add(new NewTopic(Topics.REPLIES.name(), layout.replyPartitions(), rf)
                .configs(with(replication, TopicConfig.RETENTION_MS_CONFIG, "3600000")));
        return topics;
    }

    private static Map<String, String> with(Replication replication, String key, String value) {
        Map<String, String> configs = new HashMap<>();
        configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(replication.minInsyncReplicas()));
        if (key != null) {
            configs.put(key, value);
        }
        return Map.copyOf(configs);
    }

    /** Creates what is missing; returns the replication the layout resolves to on this cluster. */
    public static Replication ensureTopics(String bootstrapServers, Layout layout) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers))) {
            Replication replication = resolveReplication(admin, layout);
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = newTopics(layout, replication).stream().filter(t -> !existing.contains(t.name())).toList();
            warnOfFewerReplicas(admin, existing, replication);
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
            return replication;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create the gateway topics on " + bootstrapServers, e);
        }
    }

    /**
     * An existing gateway topic with fewer replicas than the layout resolves to is left alone (partitions are
     * moved with {@code kafka-reassign-partitions.sh}, never here), but said at every start: such a topic stops
     * its workspaces for as long as one broker is down, which a deployment that asked for 3 replicas does not
     * expect (docs/operating-a-cluster.md, "Replication, decided once").
     */
    private static void warnOfFewerReplicas(Admin admin, Set<String> existing, Replication replication)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<String> ours = Topics.ALL.stream().map(Topics.Topic::name).filter(existing::contains).toList();
        if (ours.isEmpty()) {
            return;
        }
        for (TopicDescription topic : admin.describeTopics(ours).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
            int replicas = topic.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
            if (replicas < replication.factor()) {
                LOG.log(System.Logger.Level.WARNING, "Topic {0} has {1} replica(s) per partition, but this cluster''s"
                        + " layout asks for {2}: it stops while one of its brokers is down. Add replicas with"
                        + " kafka-reassign-partitions.sh (docs/operating-a-cluster.md).", topic.name(), replicas,
                        replication.factor());
            }
        }
    }

    /** The replication of the layout on the cluster {@code admin} talks to (asks it for its brokers when derived). */
    public static Replication resolveReplication(Admin admin, Layout layout)
            throws ExecutionException, InterruptedException, TimeoutException {
        int brokers = layout.replicationFactor() > 0 ? layout.replicationFactor()
                : admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
        return Replication.of(brokers, layout.replicationFactor(), layout.minInsyncReplicas());
    }

    private static Properties adminProperties(String bootstrapServers) {
        Properties props = new Properties();
        // a start while a broker is down must not wait 30 s on it per call (KafkaClientTimeouts)
        props.putAll(KafkaClientTimeouts.admin());
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return props;
    }
}
