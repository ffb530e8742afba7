package io.agentgateway.faultsuite;

import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.launcher.ClassDataSharing;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The distributed gateway as plain processes on one machine (no Docker): 3 KRaft brokers (each broker and
 * controller), PostgreSQL, the projector, 2 decision-stream instances, the notifier and 2 ingress replicas,
 * started in the documented order with a readiness check for each step (docs/operating-a-cluster.md):
 *
 * <ol>
 *   <li>brokers: all three registered (the cluster's metadata lists 3 nodes);</li>
 *   <li>PostgreSQL: accepts connections;</li>
 *   <li>projector: its health endpoint answers UP (its management server opens only once Flyway has applied every
 *       migration; the ingress reads its schema);</li>
 *   <li>decision streams: their group is Stable with both members;</li>
 *   <li>notifier; ingress replicas: the admin API answers.</li>
 * </ol>
 *
 * {@code java -cp fault-suite/target/fault-suite.jar -Dloader.main=io.agentgateway.faultsuite.LocalCluster
 * org.springframework.boot.loader.launch.PropertiesLauncher [at_least_once|exactly_once_v2]} brings it up and
 * runs until Ctrl-C ({@code scripts/local-cluster.sh}).
 */
public final class LocalCluster implements AutoCloseable {
    static final String OPERATOR = "cluster-operator";
    static final String DB_USER = "postgres";

    final Path dir;
    final Path repo;
    final String guarantee;
    final int basePort;
    final String jwtSecret;
    final String secretsKey;
    final List<ClusterProcess> brokers = new ArrayList<>();
    final List<ClusterProcess> decisionStreams = new ArrayList<>();
    final List<ClusterProcess> ingresses = new ArrayList<>();
    /** Per service module: its extracted jar and class data archive, made once per cluster. */
    private final Map<String, ClassDataSharing> classData = new LinkedHashMap<>();
    ClusterProcess postgres;
    ClusterProcess projector;
    ClusterProcess notifier;

    LocalCluster(Path repo, Path dir, String guarantee) {
        this.repo = repo;
        this.dir = dir;
        this.guarantee = guarantee;
        this.basePort = freeBlock();
        byte[] key = new byte[32];
        ThreadLocalRandom.current().nextBytes(key);
        this.secretsKey = Base64.getEncoder().encodeToString(key);
        this.jwtSecret = "local-cluster-secret-" + Uuid.randomUuid() + Uuid.randomUuid();
    }

    /**
     * A block of 20 ports in 20000–31999 none of which is in use now (the machine is shared). Below Linux's ephemeral
     * range (32768–60999): a port there can be taken between this check and a service's bind by any outgoing
     * connection's local port, and one was (a decision stream's management port, while the class data archives were
     * being written).
     */
    static int freeBlock() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = 20000 + ThreadLocalRandom.current().nextInt(0, 600) * 20;
            boolean free = true;
            for (int port = base; port < base + 20 && free; port++) {
                try (java.net.ServerSocket socket = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
                    socket.setReuseAddress(true);
                } catch (IOException inUse) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no free block of 20 ports found");
    }

    int brokerPort(int node) {
        return basePort + node;          // 1..3
    }

    int controllerPort(int node) {
        return basePort + 10 + node;     // 11..13
    }

    int postgresPort() {
        return basePort + 5;
    }

    /** The projector's management server (health): open once its migrations are applied. */
    int projectorManagementPort() {
        return basePort + 15;
    }

    int ingressPort(int index) {
        return basePort + 7 + index;     // 7, 8
    }

    /** An ingress replica's management server (its readiness). */
    int ingressManagementPort(int index) {
        return basePort + 9 + index;     // 9, 10
    }

    /** A decision-stream instance's management server (its health). */
    int decisionStreamManagementPort(int index) {
        return basePort + 16 + index;    // 16, 17
    }

    String bootstrapServers() {
        return "127.0.0.1:" + brokerPort(1) + ",127.0.0.1:" + brokerPort(2) + ",127.0.0.1:" + brokerPort(3);
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgresPort() + "/gateway";
    }

    String ingressUrl(int index) {
        return "http://127.0.0.1:" + ingressPort(index);
    }

    String operatorJwt() {
        return DevJwts.sign(jwtSecret, OPERATOR, null, Duration.ofHours(6));
    }

    private Path jar(String module) {
        Path jar = repo.resolve(module).resolve("target").resolve(module + "-0.1.0-SNAPSHOT-exec.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build with ./mvnw -B -ntp -q package -DskipTests");
        }
        return jar;
    }

    /**
     * A broker's command line; {@code -Dfaults.brokerLogback=<file>} gives the brokers a logback
     * configuration of its own (e.g. the controller's and partitions' INFO lines, for a diagnosis run).
     */
    private List<String> brokerJava(Path jar, String... args) {
        List<String> command = java("320m", jar, args);
        String logback = System.getProperty("faults.brokerLogback");
        if (logback != null) {
            command.add(1, "-Dlogback.configurationFile=" + Path.of(logback).toAbsolutePath());
        }
        return command;
    }

    private List<String> java(String heap, Path jar, String... args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xms" + heap, "-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * A gateway service's command line: its JVM options ({@link #java}'s, and {@code -Dfaults.serviceJvmArgs=<args>},
     * space-separated, for a diagnosis run), and by default its jar extracted and started with a class data archive
     * made by a training start with {@code trainingEnv} (the first instance's; launcher's {@link ClassDataSharing}), as
     * docs/operating-a-cluster.md, "Starting fast", describes; {@code -Dfaults.cds=false}: the executable jar as it is.
     */
    private List<String> serviceCommand(String heap, String module, Map<String, String> trainingEnv) {
        List<String> options = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        String extra = System.getProperty("faults.serviceJvmArgs", "").trim();
        if (!extra.isEmpty()) {
            options.addAll(List.of(extra.split("\\s+")));
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        if (!useClassDataSharing()) {
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(options);
            command.addAll(List.of("-jar", jar(module).toString()));
            return command;
        }
        ClassDataSharing cds = classData.computeIfAbsent(module, m -> {
            ClassDataSharing extracted = ClassDataSharing.extract(java, jar(m), dir.resolve("apps").resolve(m));
            long ms = extracted.train(java, options, trainingEnv);
            log(m + ": class data archive written by a training start of " + ms + " ms");
            return extracted;
        });
        return cds.command(java, options, List.of());
    }

    static boolean useClassDataSharing() {
        return !"false".equals(System.getProperty("faults.cds"));
    }

    private Map<String, String> serviceEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers());
        env.put("SPRING_DATASOURCE_URL", jdbcUrl());
        env.put("SPRING_DATASOURCE_USERNAME", DB_USER);
        env.put("SPRING_DATASOURCE_PASSWORD", DB_USER);
        env.put("GATEWAY_TOPICS_COMMANDPARTITIONS", "6");
        env.put("GATEWAY_TOPICS_REPLYPARTITIONS", "4");
        env.put("GATEWAY_SECRETS_KEY", secretsKey);
        env.put("GATEWAY_AUTH_JWT_HS256SECRET", jwtSecret);
        env.put("GATEWAY_AUTH_OPERATORS", OPERATOR);
        // the services' management ports (ingress 8081, decision stream 8082, ...) are fixed defaults: two
        // instances of one service on one host must not share one, and this machine is shared
        env.put("MANAGEMENT_SERVER_PORT", "0");
        env.put("LOGGING_LEVEL_ROOT", "WARN");
        env.put("LOGGING_LEVEL_IO_AGENTGATEWAY", "INFO");
        // -Dfaults.serviceLogging=org.apache.kafka.clients.NetworkClient=DEBUG,...: logger names keep their case
        // only through SPRING_APPLICATION_JSON (an environment variable's name is lower-cased by the binding)
        String levels = System.getProperty("faults.serviceLogging", "").trim();
        if (!levels.isEmpty()) {
            StringBuilder json = new StringBuilder("{");
            for (String level : levels.split(",")) {
                String[] pair = level.split("=", 2);
                json.append(json.length() > 1 ? "," : "").append("\"logging.level.").append(pair[0].trim()).append("\":\"")
                        .append(pair[1].trim()).append('"');
            }
            env.put("SPRING_APPLICATION_JSON", json.append('}').toString());
        }
        return env;
    }

    private Path logFile(String name) {
        return dir.resolve("logs").resolve(name + ".log");
    }

    /** The 3 brokers alone (the broker failover probe). */
    void startBrokersOnly() {
        try {
            Files.createDirectories(dir.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path launcher = jar("launcher");
        String clusterId = Uuid.randomUuid().toString();
        String voters = "1@127.0.0.1:" + controllerPort(1) + ",2@127.0.0.1:" + controllerPort(2) + ",3@127.0.0.1:"
                + controllerPort(3);
        for (int node = 1; node <= 3; node++) {
            brokers.add(new ClusterProcess("broker-" + node, brokerJava(launcher, "broker", "--node-id", "" + node,
                    "--port", "" + brokerPort(node), "--controller-port", "" + controllerPort(node), "--voters", voters,
                    "--cluster-id", clusterId, "--data-dir", dir.resolve("broker-" + node).toString()),
                    Map.of(), logFile("broker-" + node)));
        }
        brokers.forEach(ClusterProcess::start);
        await("3 brokers registered", Duration.ofMinutes(3), () -> brokerCount() == 3);
    }

    void start() {
        try {
            Files.createDirectories(dir.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path launcher = jar("launcher");
        String clusterId = Uuid.randomUuid().toString();
        String voters = "1@127.0.0.1:" + controllerPort(1) + ",2@127.0.0.1:" + controllerPort(2) + ",3@127.0.0.1:"
                + controllerPort(3);
        for (int node = 1; node <= 3; node++) {
            brokers.add(new ClusterProcess("broker-" + node, brokerJava(launcher, "broker", "--node-id", "" + node,
                    "--port", "" + brokerPort(node), "--controller-port", "" + controllerPort(node), "--voters", voters,
                    "--cluster-id", clusterId, "--data-dir", dir.resolve("broker-" + node).toString()),
                    Map.of(), logFile("broker-" + node)));
        }
        postgres = new ClusterProcess("postgres", java("96m", launcher, "postgres", "--data-dir",
                dir.resolve("postgres").toString(), "--port", "" + postgresPort()), Map.of(), logFile("postgres"));
        log("starting 3 brokers");
        brokers.forEach(ClusterProcess::start);
        await("3 brokers registered", Duration.ofMinutes(3), () -> brokerCount() == 3);
        log("starting PostgreSQL");
        postgres.start();
        await("PostgreSQL accepting connections", Duration.ofMinutes(2), this::postgresUp);
        // the services' commands: with a class data archive each (-Dfaults.cds=false: their executable jars), whose
        // training starts need PostgreSQL (a context that migrates its schema) and no broker
        Map<String, String> projectorEnv = new LinkedHashMap<>(serviceEnv());
        projectorEnv.put("GATEWAY_PROJECTOR_INSTANCEID", "projector-1");
        projectorEnv.put("MANAGEMENT_SERVER_PORT", "" + projectorManagementPort());
        projector = new ClusterProcess("projector", serviceCommand("256m", "projector", projectorEnv), projectorEnv, logFile("projector"));
        for (int i = 1; i <= 2; i++) {
            Map<String, String> env = new LinkedHashMap<>(serviceEnv());
            env.put("GATEWAY_DECISION_STATEDIR", dir.resolve("streams-" + i).toString());
            env.put("GATEWAY_DECISION_PROCESSINGGUARANTEE", guarantee);
            env.put("MANAGEMENT_SERVER_PORT", "" + decisionStreamManagementPort(i - 1));
            decisionStreams.add(new ClusterProcess("decision-stream-" + i, serviceCommand("320m", "decision-stream", env), env,
                    logFile("decision-stream-" + i)));
        }
        Map<String, String> notifierEnv = new LinkedHashMap<>(serviceEnv());
        notifierEnv.put("GATEWAY_NOTIFIER_INSTANCEID", "notifier-1");
        notifierEnv.put("SPRING_MAIL_HOST", "127.0.0.1");
        notifierEnv.put("SPRING_MAIL_PORT", "" + (basePort + 19));
        notifierEnv.put("GATEWAY_NOTIFIER_MAXATTEMPTS", "1");
        notifier = new ClusterProcess("notifier", serviceCommand("192m", "notifier", notifierEnv), notifierEnv, logFile("notifier"));
        for (int i = 0; i < 2; i++) {
            Map<String, String> env = new LinkedHashMap<>(serviceEnv());
            env.put("SERVER_PORT", "" + ingressPort(i));
            env.put("GATEWAY_INGRESS_REPLYPARTITION", "" + i);
            // kept across its restarts: what a killed replica never answered is reported by its next start
            env.put("GATEWAY_INGRESS_JOURNALDIR", dir.resolve("ingress-" + (i + 1)).toString());
            env.put("GATEWAY_EXECUTOR_ENABLED", "false");
            env.put("MANAGEMENT_SERVER_PORT", "" + ingressManagementPort(i));
            ingresses.add(new ClusterProcess("ingress-" + (i + 1), serviceCommand("320m", "ingress-api", env), env,
                    logFile("ingress-" + (i + 1))));
        }

        log("starting the projector");
        projector.start();
        await("the projector's schema migrated (its health UP)", Duration.ofMinutes(3), this::projectorUp);
        log("starting 2 decision-stream instances (" + guarantee + ")");
        decisionStreams.forEach(ClusterProcess::start);
        await("the decision streams' group stable with 2 members", Duration.ofMinutes(3), () -> decisionGroupMembers() == 2);
        log("starting the notifier and 2 ingress replicas");
        notifier.start();
        ingresses.forEach(ClusterProcess::start);
        for (int i = 0; i < 2; i++) {
            int index = i;
            await("ingress-" + (i + 1) + " answering", Duration.ofMinutes(3), () -> ingressAnswers(index));
        }
        requireReplicatedTopics();
        log("cluster up: ingress " + ingressUrl(0) + " and " + ingressUrl(1) + ", Kafka " + bootstrapServers()
                + ", PostgreSQL " + jdbcUrl() + ", logs in " + dir.resolve("logs"));
    }

    /**
     * The services created the topics, as a deployment would: each of them must have 3 replicas with 2 in sync, or
     * the broker faults measure an unreplicated partition instead of a failover (as they once did, when two
     * services' defaults asked for one replica).
     */
    private void requireReplicatedTopics() {
        List<String> names = Topics.ALL.stream().map(Topics.Topic::name).toList();
        try (Admin admin = admin()) {
            for (TopicDescription topic : admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values()) {
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
                String minInsync = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource)
                        .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value();
                boolean replicated = topic.partitions().stream().allMatch(p -> p.replicas().size() == 3);
                if (!replicated || !"2".equals(minInsync)) {
                    throw new IllegalStateException("topic " + topic.name() + " was created with replicas "
                            + topic.partitions().stream().map(p -> p.replicas().size()).distinct().toList()
                            + " and min.insync.replicas " + minInsync + ", not 3 and 2");
                }
            }
            log("topics: " + names.size() + " with 3 replicas, min.insync.replicas 2");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot describe the gateway's topics", e);
        }
    }

    int brokerCount() {
        try (Admin admin = admin()) {
            return admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return 0;
        }
    }

    /** Members of the decision stream's group when it is Stable, else 0. */
    int decisionGroupMembers() {
        try (Admin admin = admin()) {
            String groupId = StreamsOptions.DEFAULT_APPLICATION_ID;
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(groupId)).all()
                    .get(5, TimeUnit.SECONDS).get(groupId);
            return group.groupState() == GroupState.STABLE ? group.members().size() : 0;
        } catch (Exception e) {
            return 0;
        }
    }

    /** The groups whose coordinator a broker fault names: the gateway's consumers. */
    static final List<String> GROUPS = List.of(StreamsOptions.DEFAULT_APPLICATION_ID, "gateway-projector", "gateway-notifier");

    /**
     * What broker {@code node} does now: the loaded partitions it leads (the commands and events partitions the suite's
     * workspaces write, the replies partitions of the two replicas), whether it is the active KRaft controller, and the
     * groups and transactions it coordinates.
     */
    BrokerRoles brokerRoles(Admin admin, int node) throws Exception {
        Map<String, TopicDescription> topics = admin.describeTopics(List.of(Topics.COMMANDS.name(), Topics.EVENTS.name(),
                Topics.REPLIES.name())).allTopicNames().get(10, TimeUnit.SECONDS);
        Map<String, List<Integer>> leads = new LinkedHashMap<>();
        for (TopicDescription topic : topics.values()) {
            List<Integer> led = topic.partitions().stream()
                    .filter(p -> p.leader() != null && p.leader().id() == node)
                    .filter(p -> !topic.name().equals(Topics.REPLIES.name()) || p.partition() < ingresses.size())
                    .map(org.apache.kafka.common.TopicPartitionInfo::partition).toList();
            if (!led.isEmpty()) {
                leads.put(topic.name(), led);
            }
        }
        int controller = admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS).leaderId();
        List<String> coordinates = new ArrayList<>();
        for (var group : admin.describeConsumerGroups(GROUPS).all().get(10, TimeUnit.SECONDS).values()) {
            if (group.coordinator() != null && group.coordinator().id() == node) {
                coordinates.add("group " + group.groupId());
            }
        }
        List<String> transactionalIds = admin.listTransactions().all().get(10, TimeUnit.SECONDS).stream()
                .map(org.apache.kafka.clients.admin.TransactionListing::transactionalId).toList();
        if (!transactionalIds.isEmpty()) {
            for (var described : admin.describeTransactions(transactionalIds).all().get(10, TimeUnit.SECONDS).entrySet()) {
                if (described.getValue().coordinatorId() == node) {
                    coordinates.add("transactions of " + described.getKey());
                }
            }
        }
        return new BrokerRoles(node, leads, controller == node, coordinates);
    }

    /** @param leads the loaded partitions led, by topic */
    record BrokerRoles(int node, Map<String, List<Integer>> leads, boolean controller, List<String> coordinates) {
        int loadedPartitionsLed() {
            return leads.values().stream().mapToInt(List::size).sum();
        }

        @Override
        public String toString() {
            return "broker-" + node + ": leads " + (leads.isEmpty() ? "no loaded partition" : leads.toString())
                    + (controller ? "; the active controller" : "; not the controller")
                    + (coordinates.isEmpty() ? "; coordinates nothing of the gateway's" : "; coordinates " + coordinates);
        }
    }

    /** From a decision-stream instance's start: to Kafka Streams RUNNING (in the group, its copies restoring), and to ready. */
    record StreamStart(long runningMs, long decidingMs) {}

    /**
     * Restarts decision-stream instance {@code index} with {@code changes} to its environment (SIGTERM, a clean stop
     * that leaves the group, then a start), as an operator rolls a change out: it waits until the instance is ready
     * (it decides again: its copies caught up and its tasks handed back) before it returns, so that the next instance
     * is never stopped while this one holds copies only.
     */
    StreamStart restartDecisionStream(int index, Map<String, String> changes) {
        return restartDecisionStream(index, changes, true);
    }

    /** @param awaitDeciding false: return once it is RUNNING (in the group, holding copies), before it decides again */
    StreamStart restartDecisionStream(int index, Map<String, String> changes, boolean awaitDeciding) {
        ClusterProcess stream = decisionStreams.get(index);
        log("stopping " + stream.name);
        stream.stop();
        stream.changeEnvironment(changes);
        long offset = logSize(stream);
        log("starting " + stream.name + (changes.isEmpty() ? "" : " with " + changes));
        stream.start();
        long running = awaitLogLine(stream, "decision stream state RUNNING", offset, Duration.ofMinutes(3));
        if (!awaitDeciding) {
            log(stream.name + " RUNNING " + (running - stream.startedAtMs()) + " ms after its start");
            return new StreamStart(running - stream.startedAtMs(), -1);
        }
        await(stream.name + " ready (deciding)", Duration.ofMinutes(4), () -> decisionStreamReady(index));
        long deciding = System.currentTimeMillis();
        await("the decision streams' group stable with 2 members", Duration.ofMinutes(3), () -> decisionGroupMembers() == 2);
        log(stream.name + " RUNNING " + (running - stream.startedAtMs()) + " ms and deciding " + (deciding - stream.startedAtMs())
                + " ms after its start");
        return new StreamStart(running - stream.startedAtMs(), deciding - stream.startedAtMs());
    }

    /** Whether a decision-stream instance's readiness is UP: it decides (RUNNING with active tasks). */
    boolean decisionStreamReady(int index) {
        return healthUp(decisionStreamManagementPort(index), "/actuator/health/readiness");
    }

    /** Whether the health at {@code path} on a loopback management port answers UP. */
    private static boolean healthUp(int port, String path) {
        try {
            GatewayHttpClient.Response health = new GatewayHttpClient("http://127.0.0.1:" + port).send("GET", path, null, null);
            return health.status() == 200 && "UP".equals(health.text("status"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    long logSize(ClusterProcess process) {
        try {
            return Files.exists(process.log()) ? Files.size(process.log()) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** When (epoch ms, as this process sees it) {@code text} appeared in the process's log after byte {@code offset}. */
    long awaitLogLine(ClusterProcess process, String text, long offset, Duration timeout) {
        long[] seenAt = {0};
        await(process.name + " logging '" + text + "'", timeout, () -> {
            try (var in = Files.newInputStream(process.log())) {
                in.skipNBytes(Math.min(offset, Files.size(process.log())));
                if (new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).contains(text)) {
                    seenAt[0] = System.currentTimeMillis();
                    return true;
                }
            } catch (IOException e) {
                // not written yet
            }
            return false;
        });
        return seenAt[0];
    }

    /**
     * Waits until the cluster is whole again after a fault, so that the next fault meets one: every partition's
     * replicas in sync ({@link #awaitReplicasInSync}), both decision-stream instances in a Stable group and deciding,
     * both ingress replicas ready. A process restarted at the end of a cell may take longer than the cell to start on a loaded
     * machine; its late return would otherwise fall into the next cell.
     *
     * @return how long that took, in ms
     */
    long awaitWhole(Duration timeout) {
        long start = System.currentTimeMillis();
        awaitReplicasInSync(timeout);
        await("the decision streams' group stable with 2 members", timeout, () -> decisionGroupMembers() == 2);
        for (int i = 0; i < decisionStreams.size(); i++) {
            int index = i;
            await("decision-stream-" + (i + 1) + " ready (deciding)", timeout, () -> decisionStreamReady(index));
        }
        for (int i = 0; i < ingresses.size(); i++) {
            int index = i;
            await("ingress-" + (i + 1) + " ready", timeout, () -> ingressReady(index));
        }
        return System.currentTimeMillis() - start;
    }

    /**
     * Waits until every partition of every topic (the gateway's, the changelogs, the brokers' internal ones) has all its
     * replicas in sync again, after a broker fault. A broker that came back catches up for seconds to minutes on a
     * loaded machine: a next broker fault before that would take partitions below {@code min.insync.replicas}, which
     * measures two brokers down, not one.
     *
     * @return how long that took, in ms
     */
    long awaitReplicasInSync(Duration timeout) {
        long start = System.currentTimeMillis();
        await("every partition's replicas in sync", timeout, () -> {
            try (Admin admin = admin()) {
                var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names()
                        .get(5, TimeUnit.SECONDS);
                return admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                        .flatMap(t -> t.partitions().stream())
                        .allMatch(p -> p.leader() != null && p.isr().size() == p.replicas().size());
            } catch (Exception e) {
                return false;
            }
        });
        return System.currentTimeMillis() - start;
    }

    /** Whether an ingress replica's readiness (what a load balancer asks) is UP. */
    boolean ingressReady(int index) {
        return healthUp(ingressManagementPort(index), "/actuator/health/readiness");
    }


    Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        return Admin.create(props);
    }

    boolean postgresUp() {
        try (Connection c = db()) {
            return c.isValid(2);
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * The projector's health UP. Its management server opens only after the application context is up, Flyway's
     * migrations included, so this does not name a version that the next migration would make stale.
     */
    private boolean projectorUp() {
        return healthUp(projectorManagementPort(), "/actuator/health");
    }

    boolean ingressAnswers(int index) {
        try {
            return new GatewayHttpClient(ingressUrl(index)).send("GET", "/admin/v1/workspaces?limit=1", operatorJwt(), null)
                    .status() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }

    boolean portOpen(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    Connection db() throws java.sql.SQLException {
        Properties props = new Properties();
        props.put("user", DB_USER);
        props.put("password", DB_USER);
        props.put("connectTimeout", "2");
        props.put("socketTimeout", "60");
        return DriverManager.getConnection(jdbcUrl(), props);
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready within " + timeout + ": " + what);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what);
            }
        }
    }

    static void log(String text) {
        System.out.printf("%tT %s%n", System.currentTimeMillis(), text);
        System.out.flush();
    }

    @Override
    public void close() {
        // the reverse of the start order
        ingresses.forEach(ClusterProcess::stop);
        if (notifier != null) {
            notifier.stop();
        }
        decisionStreams.forEach(ClusterProcess::stop);
        if (projector != null) {
            projector.stop();
        }
        if (postgres != null) {
            postgres.stop();
        }
        ClusterProcess.stopTogether(brokers);
    }

    public static void main(String[] args) throws Exception {
        String guarantee = args.length > 0 ? args[0] : "at_least_once";
        Path dir = Files.createTempDirectory("gateway-cluster-");
        LocalCluster cluster = new LocalCluster(Path.of(System.getProperty("gateway.repo", ".")).toAbsolutePath(), dir,
                guarantee);
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "cluster-stop"));
        cluster.start();
        System.out.println("Operator JWT (user " + OPERATOR + "): " + cluster.operatorJwt());
        System.out.println("Bootstrap the first workspace: GATEWAY_AUTH_JWT_HS256SECRET='" + cluster.jwtSecret
                + "' GATEWAY_AUTH_OPERATORS=" + OPERATOR + " java -jar launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar"
                + " bootstrap --url " + cluster.ingressUrl(0));
        System.out.println("Running; Ctrl-C stops every process.");
        Thread.currentThread().join();
    }
}
