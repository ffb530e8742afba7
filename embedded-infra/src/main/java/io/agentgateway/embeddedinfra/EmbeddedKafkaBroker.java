package io.agentgateway.embeddedinfra;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka (KRaft, combined broker and controller) started in this process from
 * Kafka's own server classes. Unlike Kafka's test kit, which binds every interface, this binds
 * 127.0.0.1 only. With a data directory it keeps its log across restarts (the embedded default);
 * without one it uses a temporary directory that is deleted on close (tests).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final Path logDir;
    private final boolean temporary;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers, Path logDir, boolean temporary) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.logDir = logDir;
        this.temporary = temporary;
    }

    /**
     * @param dataDir    where the log lives; null for a temporary directory deleted on close
     * @param port       the client port on 127.0.0.1; 0 for a free one
     * @param portsTaken ports another server was told to bind and may not have bound yet (a PostgreSQL starting
     *                   beside this broker): the ports this broker chooses are among the others
     */
    public static EmbeddedKafkaBroker start(Path dataDir, int port, int... portsTaken) {
        try {
            boolean temporary = dataDir == null;
            Path logDir = temporary ? Files.createTempDirectory("gateway-kafka-") : dataDir.toAbsolutePath();
            Files.createDirectories(logDir);
            int clientPort = port == 0 ? FreePorts.pickOtherThan(portsTaken) : port;
            int[] taken = Arrays.copyOf(portsTaken, portsTaken.length + 1);
            taken[portsTaken.length] = clientPort;
            int controllerPort = FreePorts.pickOtherThan(taken);
            KafkaConfig config = new KafkaConfig(brokerProperties(logDir, clientPort, controllerPort), false);
            format(logDir);
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            String bootstrap = "127.0.0.1:" + clientPort;
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, bootstrap, logDir, temporary);
            broker.awaitReady();
            log.info("Kafka (KRaft) listening on {} with data in {}", bootstrap, logDir);
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare the Kafka data directory", e);
        }
    }

    /**
     * One node of a cluster of several (each combined broker and controller, in a process of its own):
     * the fault suite's and the local cluster script's brokers. Every node gets the same voters and
     * cluster id; the gateway's failover settings (see {@link #clusterProperties}) apply.
     *
     * @param nodeId          1..n, unique in the cluster
     * @param voters          {@code 1@127.0.0.1:port,2@...}: every node's controller address
     * @param clusterId       the same on every node (a Kafka {@link Uuid} string), used to format a new directory
     */
    public static EmbeddedKafkaBroker startClusterNode(Path dataDir, int nodeId, int clientPort, int controllerPort,
            String voters, String clusterId, Map<String, String> overrides) {
        try {
            Path logDir = dataDir.toAbsolutePath();
            Files.createDirectories(logDir);
            Properties props = clusterProperties(logDir, nodeId, clientPort, controllerPort, voters);
            props.putAll(overrides);
            KafkaConfig config = new KafkaConfig(props, false);
            format(logDir, nodeId, clusterId);
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            String bootstrap = "127.0.0.1:" + clientPort;
            log.info("Kafka node {} (KRaft) listening on {} with data in {}", nodeId, bootstrap, logDir);
            return new EmbeddedKafkaBroker(server, bootstrap, logDir, false);
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare the Kafka data directory", e);
        }
    }

    /**
     * A node of a 3-broker cluster with the settings docs/operating-a-cluster.md explains: internal
     * topics with 3 replicas and 2 in sync (transactions survive a lost broker), a dead broker fenced
     * after 6 s instead of 9 s (its partitions wait for that; 3 s fenced live brokers on a loaded machine,
     * where the controller took 3.1 s to process a heartbeat), no automatic
     * preferred-leader election (it moved leaders back under load five minutes after a broker returned,
     * a second burst of errors; run it deliberately), a dead producer's transaction aborted within
     * a second of its timeout, and under exactly-once a transaction's first write to a partition whose
     * previous transaction's markers are still replicating held at the broker for up to a second (Kafka:
     * 100 ms, after which the producer got {@code CONCURRENT_TRANSACTIONS} and retried after 100 ms to 1 s;
     * on three loaded brokers that was most commits in the first 20 s of load).
     */
    static Properties clusterProperties(Path logDir, int nodeId, int clientPort, int controllerPort, String voters) {
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", Integer.toString(nodeId)),
                Map.entry("controller.quorum.voters", voters),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPort),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", logDir.toString()),
                Map.entry("offsets.topic.replication.factor", "3"),
                Map.entry("offsets.topic.num.partitions", "5"),
                Map.entry("transaction.state.log.replication.factor", "3"),
                Map.entry("transaction.state.log.min.isr", "2"),
                Map.entry("transaction.state.log.num.partitions", "5"),
                Map.entry("default.replication.factor", "3"),
                Map.entry("min.insync.replicas", "2"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("broker.session.timeout.ms", "6000"),
                Map.entry("broker.heartbeat.interval.ms", "1000"),
                Map.entry("auto.leader.rebalance.enable", "false"),
                Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
                Map.entry("add.partitions.to.txn.retry.backoff.max.ms", "1000"),
                Map.entry("num.network.threads", "2"),
                Map.entry("num.io.threads", "2")));
        return props;
    }

    private static Properties brokerProperties(Path logDir, int clientPort, int controllerPort) {
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPort),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", logDir.toString()),
                // a single node: every internal topic must accept one replica, or transactions hang
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "5"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "5"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("num.partitions", "1"),
                Map.entry("log.flush.interval.messages", Long.toString(Long.MAX_VALUE)),
                // after a crash the restarted controller gives the dead incarnation's registration a fresh session
                // and refuses the new one (DuplicateBrokerRegistration) until it expires: Kafka's 9 s were 10 of the
                // 23 s a kill -9 restart took. A single node has no one to fail over to: the session only says how soon
                // its own controller fences it when its heartbeats stop, and a process that stalls 3 s has failed its
                // callers already (their commands time out after 3 s)
                Map.entry("broker.session.timeout.ms", "3000"),
                Map.entry("broker.heartbeat.interval.ms", "1000"),
                Map.entry("num.network.threads", "2"),
                Map.entry("num.io.threads", "4")));
        return props;
    }

    /** Writes meta.properties once; an already formatted directory keeps its cluster id. */
    private static void format(Path logDir) {
        format(logDir, 1, Uuid.randomUuid().toString());
    }

    private static void format(Path logDir, int nodeId, String clusterId) {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return;
        }
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setDirectories(List.of(logDir.toString()))
                    .setMetadataLogDirectory(Optional.of(logDir.toString()))
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka log directory " + logDir, e);
        }
    }

    /** The broker answers metadata requests only once the controller has elected itself. */
    private void awaitReady() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Admin admin = Admin.create(props)) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return;
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Kafka did not become ready on " + bootstrapServers, e);
                    }
                }
            }
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Blocks until the server has shut down (a node run as a process of its own). */
    public void awaitShutdown() {
        server.awaitShutdown();
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        if (temporary) {
            Directories.deleteRecursively(logDir);
        }
    }
}
