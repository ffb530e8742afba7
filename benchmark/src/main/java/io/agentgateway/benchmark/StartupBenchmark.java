package io.agentgateway.benchmark;

import io.agentgateway.benchmark.measure.CpuTime;
import io.agentgateway.launcher.ClassDataSharing;
import io.agentgateway.launcher.GatewayHttpClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Start-to-ready of a gateway replica, as its executable jar and with a class data archive ({@link ClassDataSharing}):
 * an ingress replica (its readiness UP: it can have commands decided), a decision-stream instance (its readiness UP:
 * it decides, here for every partition) and the embedded default restarted on its data (its first evaluation answered
 * 200). Wall time from the process's start, and the CPU the process used until then (utime + stime: the figure a loaded
 * machine does not move), each twice per variant, the variants alternated. A single broker and PostgreSQL run as
 * processes of their own (the launcher's {@code broker} and {@code postgres} commands); the JVM options are the fault
 * suite's for the services ({@code LocalCluster}) and the README's for the embedded default.
 *
 * <pre>
 * ./mvnw -B -ntp -q package -DskipTests
 * java -Dgateway.repo=. -Dloader.main=io.agentgateway.benchmark.StartupBenchmark -cp benchmark/target/benchmark.jar \
 *   org.springframework.boot.loader.launch.PropertiesLauncher
 * </pre>
 * {@code -Dbench.startupRounds=2} (each figure this many times), {@code -Dbench.startupParts=ingress,decision-stream,embedded},
 * {@code -Dbench.baselineRepo=<another checkout, built>}: its executable jars measured first, as "before".
 */
public final class StartupBenchmark {
    private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
    private static final List<String> SERVICE_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final List<String> EMBEDDED_OPTIONS = List.of("-Xms512m", "-Xmx1g", "-XX:MaxTenuringThreshold=2");
    private static final Pattern API_KEY = Pattern.compile("Agent API key:\\s+(\\S+)");
    private static final Pattern RUNNING = Pattern.compile("running at (http://\\S+)");

    private record Start(long wallMs, double cpuSeconds) {}

    private record Part(String name, String variant, List<Start> starts, long trainingMs) {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(System.getProperty("gateway.repo", ".")).toAbsolutePath();
        // another build's jars (its repository, built), measured as they are: the "before" of a change
        String baseline = System.getProperty("bench.baselineRepo");
        List<String> variants = baseline == null ? List.of("jar", "cds") : List.of("before", "jar", "cds");
        int rounds = Integer.getInteger("bench.startupRounds", 2);
        List<String> parts = List.of(System.getProperty("bench.startupParts", "ingress,decision-stream,embedded").split(","));
        Path work = Files.createTempDirectory("gateway-startup-");
        List<Part> results = new ArrayList<>();
        try (Infra infra = Infra.start(repo, work)) {
            for (String part : parts) {
                Map<String, List<Start>> byVariant = new LinkedHashMap<>();
                Map<String, Long> training = new LinkedHashMap<>();
                for (int round = 0; round < rounds; round++) {
                    for (String variant : variants) {
                        Path jars = variant.equals("before") ? Path.of(baseline).toAbsolutePath() : repo;
                        Start start = switch (part.trim()) {
                            case "ingress" -> ingress(jars, work, infra, variant, training);
                            case "decision-stream" -> decisionStream(jars, work, infra, variant, training);
                            case "embedded" -> embedded(jars, work, variant, training);
                            default -> throw new IllegalArgumentException("no part " + part);
                        };
                        System.out.printf(Locale.ROOT, "%s, %s, round %d: ready %.1f s after its start, %.2f s of CPU%n", part,
                                variant, round + 1, start.wallMs() / 1000.0, start.cpuSeconds());
                        byVariant.computeIfAbsent(variant, v -> new ArrayList<>()).add(start);
                    }
                }
                byVariant.forEach((variant, starts) -> results.add(new Part(part.trim(), variant, starts,
                        training.getOrDefault(variant, 0L))));
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Start to ready, %d rounds, load average at the end %s (%d cores)%n", rounds,
                Files.readString(Path.of("/proc/loadavg")).trim(), Runtime.getRuntime().availableProcessors());
        System.out.println("| part | variant | wall s (each start) | CPU s (each start) | CPU vs " + variants.get(0)
                + " | training start s |");
        System.out.println("|---|---|---|---|---|---|");
        for (Part p : results) {
            double cpu = p.starts().stream().mapToDouble(Start::cpuSeconds).average().orElse(0);
            String reference = variants.get(0);
            double jarCpu = results.stream().filter(q -> q.name().equals(p.name()) && q.variant().equals(reference))
                    .flatMap(q -> q.starts().stream()).mapToDouble(Start::cpuSeconds).average().orElse(cpu);
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %.2f× | %s |%n", p.name(), p.variant(),
                    String.join(" / ", p.starts().stream().map(s -> String.format(Locale.ROOT, "%.1f", s.wallMs() / 1000.0)).toList()),
                    String.join(" / ", p.starts().stream().map(s -> String.format(Locale.ROOT, "%.2f", s.cpuSeconds())).toList()),
                    cpu / jarCpu, p.trainingMs() > 0 ? String.format(Locale.ROOT, "%.1f", p.trainingMs() / 1000.0) : "–");
        }
        System.exit(0);
    }

    /** An ingress replica on its own reply partition and journal; ready when its readiness is UP. */
    private static Start ingress(Path repo, Path work, Infra infra, String variant, Map<String, Long> training) throws Exception {
        int management = freePort();
        Map<String, String> env = infra.serviceEnv();
        env.put("SERVER_PORT", "" + freePort());
        env.put("MANAGEMENT_SERVER_PORT", "" + management);
        env.put("GATEWAY_INGRESS_REPLYPARTITION", "0");
        env.put("GATEWAY_INGRESS_JOURNALDIR", Files.createTempDirectory(work, "journal-").toString());
        env.put("GATEWAY_EXECUTOR_ENABLED", "false");
        List<String> options = with(SERVICE_OPTIONS, "-Xms320m", "-Xmx320m");
        return measure(command(repo, work, "ingress-api", options, env, variant, training), env, work.resolve("ingress.log"),
                () -> up("http://127.0.0.1:" + management, "/actuator/health/readiness"));
    }

    /** A decision-stream instance, the only one of a fresh application id: ready when it decides (every partition). */
    private static Start decisionStream(Path repo, Path work, Infra infra, String variant, Map<String, Long> training)
            throws Exception {
        int management = freePort();
        Map<String, String> env = infra.serviceEnv();
        env.put("MANAGEMENT_SERVER_PORT", "" + management);
        env.put("GATEWAY_DECISION_STATEDIR", Files.createTempDirectory(work, "streams-").toString());
        env.put("GATEWAY_DECISION_APPLICATIONID", "bench-startup-" + UUID.randomUUID().toString().substring(0, 8));
        List<String> options = with(SERVICE_OPTIONS, "-Xms320m", "-Xmx320m");
        // the only instance: RUNNING is deciding for every partition (an older build has no readiness group to ask)
        Path log = work.resolve("decision-stream-" + env.get("GATEWAY_DECISION_APPLICATIONID") + ".log");
        return measure(command(repo, work, "decision-stream", options, env, variant, training), env, log,
                () -> find(log, Pattern.compile("decision stream state (RUNNING)")).isPresent());
    }

    /**
     * The embedded default restarted on the data of an earlier start (as after a crash: broker log and PostgreSQL
     * there): ready when its demo workspace's key has an evaluation answered 200.
     */
    private static Start embedded(Path repo, Path work, String variant, Map<String, Long> training) throws Exception {
        Path data = work.resolve("embedded-" + variant);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GATEWAY_DATA_DIR", data.toString());
        env.put("SERVER_PORT", "" + freePort());
        env.put("GATEWAY_KAFKA_PORT", "" + freePort());
        env.put("GATEWAY_POSTGRES_PORT", "" + freePort());
        env.put("LOGGING_LEVEL_ROOT", "WARN");
        env.put("LOGGING_LEVEL_IO_AGENTGATEWAY", "INFO");
        Path jar = repo.resolve("launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar");
        Path log = work.resolve("embedded-" + variant + ".log");
        List<String> command;
        if (variant.equals("cds")) {
            ClassDataSharing cds = ClassDataSharing.extract(JAVA, jar, work.resolve("apps").resolve("launcher"));
            if (!cds.trained()) {
                // its first start seeds the data and is the training start, stopped cleanly once it answers
                Path trainingLog = cds.archive().resolveSibling("training.log");
                training.put(variant, cds.trainUntilReady(JAVA, EMBEDDED_OPTIONS, List.of(), env,
                        () -> find(trainingLog, API_KEY).isPresent(), Duration.ofMinutes(5)));
                Files.copy(trainingLog, log);
            }
            command = cds.command(JAVA, EMBEDDED_OPTIONS, List.of());
        } else {
            // the executable jar ("before": another build's)
            command = with(List.of(JAVA), EMBEDDED_OPTIONS);
            command.addAll(List.of("-jar", jar.toString()));
            if (!Files.exists(data)) {
                // its first start seeds the data; the restarts are measured
                Process first = start(command, env, log);
                await(() -> find(log, API_KEY).isPresent(), first);
                stop(first);
            }
        }
        String key = find(log, API_KEY).orElseThrow();
        String url = "http://127.0.0.1:" + env.get("SERVER_PORT");
        return measure(command, env, log, () -> evaluates(url, key));
    }

    /** The command of a service start: its executable jar, or extracted with a class data archive (trained once). */
    private static List<String> command(Path repo, Path work, String module, List<String> options, Map<String, String> env,
                                        String variant, Map<String, Long> training) {
        Path jar = repo.resolve(module).resolve("target").resolve(module + "-0.1.0-SNAPSHOT-exec.jar");
        if (!variant.equals("cds")) {
            List<String> command = with(List.of(JAVA), options);
            command.addAll(List.of("-jar", jar.toString()));
            return command;
        }
        ClassDataSharing cds = ClassDataSharing.extract(JAVA, jar, work.resolve("apps").resolve(module));
        if (!cds.trained()) {
            training.put(variant, cds.train(JAVA, options, env));
        }
        return cds.command(JAVA, options, List.of());
    }

    private static Start measure(List<String> command, Map<String, String> env, Path log, java.util.function.BooleanSupplier ready)
            throws Exception {
        Process process = start(command, env, log);
        long started = System.nanoTime();
        try {
            await(ready, process);
            long wallMs = (System.nanoTime() - started) / 1_000_000;
            double cpu = CpuTime.ticksOf(process.pid()) / 100.0;
            return new Start(wallMs, cpu);
        } finally {
            stop(process);
        }
    }

    private static void await(java.util.function.BooleanSupplier ready, Process process) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!ready.getAsBoolean()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready: " + process.info().commandLine().orElse("?"));
            }
            Thread.sleep(50);
        }
    }

    private static Process start(List<String> command, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        return builder.start();
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean up(String base, String path) {
        try {
            GatewayHttpClient.Response health = new GatewayHttpClient(base).send("GET", path, null, null);
            return health.status() == 200 && "UP".equals(health.text("status"));
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static boolean evaluates(String url, String key) {
        try {
            return new GatewayHttpClient(url).send("POST", "/functions/v1/evaluate-action", key,
                    Map.of("tool", "docs", "action", "page.read", "riskLevel", "low")).status() == 200;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static Optional<String> find(Path log, Pattern pattern) {
        try {
            Matcher matcher = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
            String last = null;
            while (matcher.find()) {
                last = matcher.group(1);
            }
            return Optional.ofNullable(last);
        } catch (IOException notYet) {
            return Optional.empty();
        }
    }

    private static List<String> with(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    private static List<String> with(List<String> first, List<String> more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(more);
        return all;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** One broker and PostgreSQL, each a process of its own, for the services to start against. */
    private static final class Infra implements AutoCloseable {
        private final Process broker;
        private final Process postgres;
        private final int brokerPort;
        private final int postgresPort;
        private final String jwtSecret;
        private final String secretsKey;

        private Infra(Process broker, Process postgres, int brokerPort, int postgresPort) {
            this.broker = broker;
            this.postgres = postgres;
            this.brokerPort = brokerPort;
            this.postgresPort = postgresPort;
            byte[] key = new byte[32];
            ThreadLocalRandom.current().nextBytes(key);
            this.secretsKey = Base64.getEncoder().encodeToString(key);
            this.jwtSecret = "startup-benchmark-" + UUID.randomUUID() + UUID.randomUUID();
        }

        static Infra start(Path repo, Path work) throws Exception {
            Path launcher = repo.resolve("launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar");
            int brokerPort = freePort();
            int controllerPort = freePort();
            int postgresPort = freePort();
            Process broker = StartupBenchmark.start(List.of(JAVA, "-Xmx512m", "-jar", launcher.toString(), "broker", "--node-id", "1",
                    "--port", "" + brokerPort, "--controller-port", "" + controllerPort, "--voters", "1@127.0.0.1:" + controllerPort,
                    "--cluster-id", org.apache.kafka.common.Uuid.randomUuid().toString(), "--data-dir",
                    work.resolve("broker").toString(),
                    // a cluster node of one: its internal topics with one replica
                    "--set", "offsets.topic.replication.factor=1", "--set", "transaction.state.log.replication.factor=1",
                    "--set", "transaction.state.log.min.isr=1", "--set", "min.insync.replicas=1",
                    "--set", "default.replication.factor=1"), Map.of(), work.resolve("broker.log"));
            Process postgres = StartupBenchmark.start(List.of(JAVA, "-Xmx96m", "-jar", launcher.toString(), "postgres", "--data-dir",
                    work.resolve("postgres").toString(), "--port", "" + postgresPort), Map.of(), work.resolve("postgres.log"));
            Predicate<Path> says = log -> find(log, Pattern.compile("(READY)")).isPresent()
                    || find(log, Pattern.compile("(listening on)")).isPresent();
            await(() -> says.test(work.resolve("broker.log")), broker);
            await(() -> says.test(work.resolve("postgres.log")), postgres);
            return new Infra(broker, postgres, brokerPort, postgresPort);
        }

        Map<String, String> serviceEnv() {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + brokerPort);
            env.put("SPRING_DATASOURCE_URL", "jdbc:postgresql://127.0.0.1:" + postgresPort + "/gateway");
            env.put("SPRING_DATASOURCE_USERNAME", "postgres");
            env.put("SPRING_DATASOURCE_PASSWORD", "postgres");
            env.put("GATEWAY_SECRETS_KEY", secretsKey);
            env.put("GATEWAY_AUTH_JWT_HS256SECRET", jwtSecret);
            env.put("GATEWAY_AUTH_OPERATORS", "operator");
            env.put("LOGGING_LEVEL_ROOT", "WARN");
            env.put("LOGGING_LEVEL_IO_AGENTGATEWAY", "INFO");
            return env;
        }

        @Override
        public void close() throws InterruptedException {
            stop(postgres);
            stop(broker);
        }
    }
}
