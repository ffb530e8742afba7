package io.agentgateway.benchmark;

import io.agentgateway.benchmark.measure.LiveHeap;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.launcher.cli.CliLogging;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * What the size of a workspace costs a decision, on a real (embedded) broker and the decision stream's own runner (no
 * HTTP: what is measured is the decision stream and its stores).
 *
 * <ol>
 *   <li><b>A big workspace against an empty one, in the same run and stream:</b> one workspace with
 *       {@code bench.approvals} (100,000) open approvals, {@code bench.keys} (50,000) API keys, half of them
 *       revoked, and {@code bench.policies} (1,000) policies, none of which matches the measured calls (every
 *       evaluation tries them all); one with nothing but its key. For each, {@code bench.measure} (20,000)
 *       allowed evaluations, then as many evaluations that open an approval: CPU of the decision stream's
 *       threads per command (stream thread and its producer; the broker, the load and the JIT are not in it)
 *       and bytes written to the changelogs per command (the log directories' growth). Target: the big
 *       workspace within 1.5 times the empty one. {@code bench.rounds} (2) rounds, empty and big alternating;
 *       the best round of each is reported. Then a fresh replica restores the stores on an empty state
 *       directory.</li>
 *   <li><b>Many workspaces:</b> {@code bench.workspaces} (100,000) workspaces of {@code bench.workspacePolicies}
 *       (10) policies each, in a stream of their own: the size of its state directory and of its changelogs,
 *       the live heap, and a fresh replica's restore (records per second, time to RUNNING, heap after).</li>
 * </ol>
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g
 * -XX:MaxTenuringThreshold=2 -Dloader.main=io.agentgateway.benchmark.ScaleBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}; a smoke run:
 * {@code -Dbench.approvals=2000 -Dbench.keys=1000 -Dbench.workspaces=2000 -Dbench.measure=3000 -Dbench.rounds=1}.
 */
public final class ScaleBenchmark {
    private static final int COMMAND_PARTITIONS = 2;
    private static final int REPLY_PARTITION = 0;
    private static final Duration STARTUP = Duration.ofMinutes(10);

    private final String bootstrap;
    private final Path workDir;
    private final Load load;
    private final Admin admin;

    private ScaleBenchmark(String bootstrap, Path workDir, Load load, Admin admin) {
        this.bootstrap = bootstrap;
        this.workDir = workDir;
        this.load = load;
        this.admin = admin;
    }

    public static void main(String[] args) throws Exception {
        int approvals = Integer.getInteger("bench.approvals", 100_000);
        int keys = Integer.getInteger("bench.keys", 50_000);
        int policies = Integer.getInteger("bench.policies", 1_000);
        int workspaces = Integer.getInteger("bench.workspaces", 100_000);
        int workspacePolicies = Integer.getInteger("bench.workspacePolicies", 10);
        int measure = Integer.getInteger("bench.measure", 20_000);
        int rounds = Integer.getInteger("bench.rounds", 2);
        String parts = System.getProperty("bench.parts", "big,many");
        CliLogging.quiet();
        Path workDir = Files.createTempDirectory("scale-bench-");
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(workDir.resolve("kafka"), 0)) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensureTopics(bootstrap, new TopicProvisioner.Layout(COMMAND_PARTITIONS, 4, (short) 1));
            try (Load load = new Load(bootstrap);
                    Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                ScaleBenchmark bench = new ScaleBenchmark(bootstrap, workDir, load, admin);
                if (parts.contains("big")) {
                    bench.bigAgainstEmpty(approvals, keys, policies, measure, rounds);
                }
                if (parts.contains("many")) {
                    bench.manyWorkspaces(workspaces, workspacePolicies);
                }
            }
        } finally {
            deleteQuietly(workDir);
        }
    }

    // ---- 1: one big workspace against an empty one ----

    private void bigAgainstEmpty(int approvals, int keys, int policies, int measure, int rounds) throws Exception {
        String applicationId = "scale-big-" + UUID.randomUUID();
        DecisionSettings settings = DecisionSettings.defaults().withLimits(DecisionLimits.defaults()
                .withOpenApprovals(approvals + 2L * measure * rounds + 10).withApiKeys(keys + 10).withPolicies(policies));
        BenchWorkspace big = new BenchWorkspace();
        BenchWorkspace empty = new BenchWorkspace();
        System.out.printf(Locale.ROOT, "%n== a workspace of %,d open approvals, %,d API keys (half revoked) and %,d policies"
                + " against an empty one ==%n", approvals, keys, policies);
        try (DecisionStreamRunner runner = runner(applicationId, settings, workDir.resolve("big-1"), null)) {
            runner.start();
            runner.awaitRunning(STARTUP);
            long t0 = System.nanoTime();
            load.send(Stream.of(big.create(), big.agentKey(), empty.create(), empty.agentKey()));
            load.send(IntStream.range(0, policies).mapToObj(i -> big.owned(new UpsertPolicy(unmatchedPolicy(i)))));
            List<String> keyIds = new ArrayList<>();
            load.send(IntStream.range(0, keys).mapToObj(i -> {
                String keyId = UUID.randomUUID().toString();
                keyIds.add(keyId);
                return big.owned(new IssueApiKey(keyId, "key " + i, sha256("bench-key-" + keyId), Set.of(Scope.EVALUATE), null));
            }));
            load.send(keyIds.subList(0, keys / 2).stream().map(keyId -> big.owned(new RevokeApiKey(keyId))));
            load.send(IntStream.range(0, approvals).mapToObj(i -> big.evaluation(RiskLevel.HIGH)));
            load.drain(List.of(big.id, empty.id));
            System.out.printf(Locale.ROOT, "filled in %.1f s (%,d commands)%n", seconds(t0),
                    4L + policies + keys + keys / 2 + approvals);
            checkFilled(big);

            Map<String, Phase> best = new HashMap<>();
            for (int round = 1; round <= rounds; round++) {
                for (BenchWorkspace ws : List.of(empty, big)) {
                    String name = ws == big ? "big" : "empty";
                    keep(best, "evaluate-action (allow), " + name,
                            phase(applicationId, ws, measure, () -> ws.evaluation(RiskLevel.LOW)));
                    keep(best, "approval opening, " + name,
                            phase(applicationId, ws, measure, () -> ws.evaluation(RiskLevel.HIGH)));
                }
            }
            System.out.printf(Locale.ROOT, "%nbest of %d round(s), %,d commands each:%n", rounds, measure);
            best.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> System.out.printf(Locale.ROOT, "  %-36s %7.1f µs CPU/command   %,7.0f changelog bytes/command%n",
                            e.getKey(), e.getValue().cpuMicros(), e.getValue().changelogBytes()));
            ratio(best, "evaluate-action (allow)");
            ratio(best, "approval opening");
        }
        restore("the big workspace's stream", applicationId, settings, workDir.resolve("big-2"));
    }

    private void checkFilled(BenchWorkspace big) {
        Reply held = load.request(big.evaluation(RiskLevel.HIGH));
        if (held.status() != ReplyStatus.OK || held.evaluation().decision() != Decision.REQUIRE_APPROVAL) {
            throw new IllegalStateException("the big workspace does not hold approvals as expected: " + held);
        }
    }

    private static void keep(Map<String, Phase> best, String name, Phase phase) {
        best.merge(name, phase, (a, b) -> a.cpuMicros() <= b.cpuMicros() ? a : b);
    }

    private static void ratio(Map<String, Phase> best, String what) {
        double ratio = best.get(what + ", big").cpuMicros() / best.get(what + ", empty").cpuMicros();
        System.out.printf(Locale.ROOT, "  %s: big / empty = %.2f (target <= 1.5)%n", what, ratio);
    }

    /** {@code count} commands of one workspace sent at once; the decision stream's CPU and changelog bytes per command. */
    private Phase phase(String applicationId, BenchWorkspace ws, int count,
                        Supplier<CommandEnvelope> command) throws Exception {
        long bytesBefore = changelogBytes(applicationId);
        double cpuBefore = threadCpuSeconds(applicationId);
        load.send(IntStream.range(0, count).mapToObj(i -> command.get()));
        load.drain(List.of(ws.id));
        double cpu = threadCpuSeconds(applicationId) - cpuBefore;
        long bytes = changelogBytes(applicationId) - bytesBefore;
        // the drain marker is one command more, answered at once (unknown key): not worth subtracting
        return new Phase(cpu * 1e6 / count, (double) bytes / count);
    }

    record Phase(double cpuMicros, double changelogBytes) {}

    // ---- 2: many small workspaces ----

    private void manyWorkspaces(int workspaces, int policiesEach) throws Exception {
        String applicationId = "scale-many-" + UUID.randomUUID();
        DecisionSettings settings = DecisionSettings.defaults();
        System.out.printf(Locale.ROOT, "%n== %,d workspaces of %d policies each ==%n", workspaces, policiesEach);
        Path stateDir = workDir.resolve("many-1");
        List<String> ids = new ArrayList<>();
        try (DecisionStreamRunner runner = runner(applicationId, settings, stateDir, null)) {
            runner.start();
            runner.awaitRunning(STARTUP);
            long t0 = System.nanoTime();
            load.send(IntStream.range(0, workspaces).boxed().flatMap(i -> {
                BenchWorkspace ws = new BenchWorkspace();
                ids.add(ws.id);
                List<CommandEnvelope> commands = new ArrayList<>();
                commands.add(ws.create());
                for (int p = 0; p < policiesEach; p++) {
                    commands.add(ws.owned(new UpsertPolicy(unmatchedPolicy(p))));
                }
                return commands.stream();
            }));
            load.drain(ids.subList(Math.max(0, ids.size() - 64), ids.size()));
            System.out.printf(Locale.ROOT, "filled in %.1f s (%,d commands)%n", seconds(t0), (long) workspaces * (1 + policiesEach));
            System.out.printf(Locale.ROOT, "live heap with the stream running: %,d MiB%n", LiveHeap.now() >> 20);
        }
        System.out.printf(Locale.ROOT, "state directory after a clean close: %,d MiB; changelogs on the broker: %,d MiB%n",
                directoryBytes(stateDir) >> 20, changelogBytes(applicationId) >> 20);
        changelogBytesByTopic(applicationId).forEach((topic, bytes) -> System.out.printf(Locale.ROOT, "  %-28s %,12d bytes%n",
                topic.substring(applicationId.length() + 1, topic.length() - "-changelog".length()), bytes));
        restore("the many workspaces' stream", applicationId, settings, workDir.resolve("many-2"));
    }

    // ---- restore of a fresh replica ----

    private void restore(String what, String applicationId, DecisionSettings settings, Path emptyStateDir) {
        AtomicLong restored = new AtomicLong();
        AtomicLong firstStart = new AtomicLong();
        AtomicLong lastEnd = new AtomicLong();
        StateRestoreListener listener = new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
                firstStart.compareAndSet(0, System.nanoTime());
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
                restored.addAndGet(numRestored);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                lastEnd.set(System.nanoTime());
            }
        };
        long heapBefore = LiveHeap.now();
        long t0 = System.nanoTime();
        try (DecisionStreamRunner replica = runner(applicationId, settings, emptyStateDir, listener)) {
            replica.start();
            replica.awaitRunning(STARTUP);
            double toRunning = seconds(t0);
            double restoring = firstStart.get() == 0 ? 0 : (lastEnd.get() - firstStart.get()) / 1e9;
            System.out.printf(Locale.ROOT, "%nfresh replica of %s on an empty state directory: %,d changelog records restored"
                            + " in %.1f s = %,.0f records/s; RUNNING after %.1f s; live heap %,d MiB (%+,d MiB); state directory %,d MiB%n",
                    what, restored.get(), restoring, restoring == 0 ? 0 : restored.get() / restoring, toRunning,
                    LiveHeap.now() >> 20, (LiveHeap.now() - heapBefore) >> 20, directoryBytes(emptyStateDir) >> 20);
        }
    }

    // ---- the parts ----

    private DecisionStreamRunner runner(String applicationId, DecisionSettings settings, Path stateDir,
                                        StateRestoreListener listener) {
        StreamsOptions options = new StreamsOptions(applicationId, ProcessingGuarantee.AT_LEAST_ONCE, null, null,
                stateDir.toString(), 1, (short) 1, 1, 5, 500);
        DecisionStreamRunner runner = new DecisionStreamRunner(settings,
                DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options));
        if (listener != null) {
            runner.restoreListener(listener);
        }
        return runner;
    }

    /** A policy for another team's agents, on one tool: it never matches the measured calls, so each is tried. */
    private static Policy unmatchedPolicy(int i) {
        Tool tool = Tool.values()[i % Tool.values().length];
        return new Policy(UUID.randomUUID().toString(), "team " + i + " " + tool.wire(), i, true,
                i % 3 == 0 ? Decision.BLOCK : Decision.REQUIRE_APPROVAL,
                new PolicyMatch(EnumSet.of(tool), List.of("team" + i + ".*", "deploy.*"), Set.of(),
                        List.of("team-" + i + "-*"), List.of(), List.of(), Set.of()),
                "keeps team " + i + "'s agents in line");
    }

    /** CPU seconds of the application's own threads (its stream thread and the stream's producer). */
    private static double threadCpuSeconds(String applicationId) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long nanos = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(applicationId)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                nanos += Math.max(0, cpu);
            }
        }
        return nanos / 1e9;
    }

    /** Bytes of the application's changelog topics in the broker's log directories. */
    private long changelogBytes(String applicationId) throws Exception {
        return changelogBytesByTopic(applicationId).values().stream().mapToLong(Long::longValue).sum();
    }

    private Map<String, Long> changelogBytesByTopic(String applicationId) throws Exception {
        Map<String, Long> bytes = new TreeMap<>();
        Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(
                admin.describeCluster().nodes().get().stream().map(n -> n.id()).toList()).allDescriptions().get();
        for (Map<String, LogDirDescription> byDir : dirs.values()) {
            for (LogDirDescription dir : byDir.values()) {
                for (var replica : dir.replicaInfos().entrySet()) {
                    String topic = replica.getKey().topic();
                    if (topic.startsWith(applicationId) && topic.endsWith("-changelog")) {
                        bytes.merge(topic, replica.getValue().size(), Long::sum);
                    }
                }
            }
        }
        return bytes;
    }

    private static long directoryBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return -1;
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory: the system cleans it up eventually
        }
    }

    /** A workspace of the benchmark: its owner and an agent key, and the commands it sends. */
    private static final class BenchWorkspace {
        final String id = UUID.randomUUID().toString();
        final Actor owner = Actor.user("bench-owner-" + id.substring(0, 8), "owner@bench.local");
        final String keyHash = sha256("agent-" + id);

        CommandEnvelope create() {
            return envelope(owner, new CreateWorkspace("bench " + id.substring(0, 8)), null);
        }

        CommandEnvelope agentKey() {
            return owned(new IssueApiKey(UUID.randomUUID().toString(), "agent", keyHash, Set.of(Scope.EVALUATE), null));
        }

        CommandEnvelope owned(Command command) {
            return envelope(owner, command, null);
        }

        /** Low: allowed by the defaults; high: held for approval by the defaults. No policy matches either. */
        CommandEnvelope evaluation(RiskLevel risk) {
            var payload = GatewayJson.MAPPER.createObjectNode().put("path", "/guides/setup").put("title", "Setup guide");
            return envelope(Actor.apiKey(keyHash, "bench-agent"), new EvaluateAction(Tool.DOCS,
                    risk == RiskLevel.LOW ? "page.read" : "page.publish", risk, "bench-agent", "Bench Agent", "page",
                    "guides/setup", payload, "bench@bench.local", ActionSource.EVALUATE, Scope.EVALUATE, false), null);
        }

        private CommandEnvelope envelope(Actor actor, Command command, Integer replyPartition) {
            return new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), id,
                    UUID.randomUUID().toString(), Instant.now(), replyPartition, actor, command);
        }
    }

    /** Publishes commands in bulk and waits for replies on one reply partition. */
    private static final class Load implements AutoCloseable {
        private final KafkaProducer<String, CommandEnvelope> producer;
        private final KafkaConsumer<String, Reply> replies;
        private final Map<String, Reply> received = new HashMap<>();

        Load(String bootstrap) {
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.LINGER_MS_CONFIG, 10, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                    ProducerConfig.ACKS_CONFIG, "all"),
                    Topics.COMMANDS.keySerde().serializer(), Topics.COMMANDS.valueSerde().serializer());
            replies = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                    Topics.REPLIES.keySerde().deserializer(), Topics.REPLIES.valueSerde().deserializer());
            TopicPartition partition = new TopicPartition(Topics.REPLIES.name(), REPLY_PARTITION);
            replies.assign(List.of(partition));
            replies.seekToEnd(List.of(partition));
            replies.position(partition);
        }

        void send(Stream<CommandEnvelope> commands) {
            commands.forEach(c -> producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), c.workspaceId(), c)));
            producer.flush();
        }

        Reply request(CommandEnvelope envelope) {
            CommandEnvelope answered = new CommandEnvelope(envelope.schemaVersion(), envelope.commandId(),
                    envelope.workspaceId(), envelope.correlationId(), envelope.acceptedAt(), REPLY_PARTITION, envelope.actor(),
                    envelope.command());
            send(Stream.of(answered));
            long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
            while (System.nanoTime() < deadline) {
                replies.poll(Duration.ofMillis(200)).forEach(r -> received.put(r.key(), r.value()));
                Reply reply = received.remove(answered.commandId());
                if (reply != null) {
                    return reply;
                }
            }
            throw new IllegalStateException("no reply to " + answered.commandId());
        }

        /**
         * Waits until everything sent so far to the partitions of {@code workspaceIds} is decided: a command with a
         * reply behind it on each such partition (an evaluation with an unknown key, answered at once).
         */
        void drain(List<String> workspaceIds) {
            Set<Integer> partitions = new HashSet<>();
            for (String id : workspaceIds) {
                int partition = Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % COMMAND_PARTITIONS;
                if (partitions.add(partition)) {
                    request(new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), id,
                            UUID.randomUUID().toString(), Instant.now(), REPLY_PARTITION, Actor.apiKey("0".repeat(64), "drain"),
                            new EvaluateAction(Tool.DOCS, "page.read", RiskLevel.LOW, "drain", null, null, null, null, null,
                                    ActionSource.EVALUATE, Scope.EVALUATE, false)));
                }
            }
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(10));
            replies.close(Duration.ofSeconds(10));
        }
    }
}
