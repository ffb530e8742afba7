package io.agentgateway.benchmark.gateway;

import io.agentgateway.embeddedinfra.Directories;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded default as a user runs it: {@code java -jar <launcher exec jar>} in a process of its own,
 * configured only by the launcher's environment variables (a private data directory, ports of its own),
 * set up only through what every build so far has: the demo workspace its first start seeds and prints,
 * else the admin API with a JWT signed by the key in {@code <data>/secrets.properties}. So the same
 * benchmark measures an older build's jar ({@code bench.gatewayJar}) as well as this one's, and the CPU of
 * the gateway is its process and PostgreSQL's, with no load generator or floor in it.
 */
public final class GatewayJarProcess implements AutoCloseable {
    public static final String DEFAULT_JVM_OPTIONS = "-Xms512m -Xmx1g -XX:MaxTenuringThreshold=2";
    static final Pattern RUNNING = Pattern.compile("running at (http://\\S+)");
    static final Pattern WORKSPACE = Pattern.compile("Workspace id:\\s+(\\S+)");
    static final Pattern API_KEY = Pattern.compile("Agent API key:\\s+(\\S+)");
    static final Pattern OWNER_JWT = Pattern.compile("Owner JWT:\\s+(\\S+)");

    private final Path jar;
    private final Path dataDir;
    private final Path log;
    private final List<String> jvmOptions;
    private final Map<String, String> environment;
    private final GatewayProcesses postgres;
    private Process process;
    private String baseUrl;
    private final Thread killOnExit = new Thread(this::destroyNow, "bench-gateway-kill");

    /** Credentials of the workspace the benchmark calls evaluate-action for. */
    public record Workspace(String workspaceId, String apiKey, String ownerJwt) {}

    private GatewayJarProcess(Path jar, Path dataDir, List<String> jvmOptions, Map<String, String> environment) {
        this.jar = jar;
        this.dataDir = dataDir;
        this.log = dataDir.resolve("gateway.log");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.environment = Map.copyOf(environment);
        this.postgres = new GatewayProcesses(dataDir.resolve("postgres"));
    }

    /**
     * Starts the jar with a fresh data directory and free ports; returns once it printed that it runs.
     *
     * @param extraEnvironment variables for this gateway on top of the benchmark's own environment (which it inherits)
     */
    public static GatewayJarProcess start(Path jar, List<String> jvmOptions, Map<String, String> extraEnvironment) throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no gateway jar at " + jar + ": build it (./mvnw -B -ntp -q -pl benchmark -am package"
                    + " -DskipTests) or name one with -Dbench.gatewayJar=");
        }
        Path dataDir = Files.createTempDirectory("gateway-bench-");
        Map<String, String> env = new HashMap<>();
        env.put("GATEWAY_DATA_DIR", dataDir.toString());
        env.put("SERVER_PORT", Integer.toString(freePort()));
        env.put("GATEWAY_KAFKA_PORT", Integer.toString(freePort()));
        env.put("GATEWAY_POSTGRES_PORT", Integer.toString(freePort()));
        env.put("GATEWAY_SEED_DEMO", "true");
        // the management server too: its default, 8081, is taken by any other gateway on the machine
        if (System.getenv("MANAGEMENT_SERVER_PORT") == null) {
            env.put("MANAGEMENT_SERVER_PORT", Integer.toString(freePort()));
        }
        // as the earlier in-process benchmark ran it: warnings only, so no log line costs CPU under load
        if (System.getenv("LOGGING_LEVEL_ROOT") == null) {
            env.put("LOGGING_LEVEL_ROOT", "WARN");
        }
        // the per-key and per-workspace request limits (gateway.limits.*, 50/s per key by default) would answer most of
        // one key's load with 429: off, unless the caller sets them (older builds ignore the variables)
        for (String limit : List.of("GATEWAY_LIMITS_KEYRATE", "GATEWAY_LIMITS_WORKSPACERATE")) {
            if (System.getenv(limit) == null) {
                env.put(limit, "0");
            }
        }
        env.putAll(extraEnvironment);
        GatewayJarProcess gateway = new GatewayJarProcess(jar.toAbsolutePath(), dataDir, jvmOptions, env);
        Runtime.getRuntime().addShutdownHook(gateway.killOnExit);
        gateway.launch(Map.of());
        return gateway;
    }

    /**
     * Stops the gateway and starts it again on the same data (same ports, topics, tables and workspace),
     * with these variables added: e.g. another processing guarantee.
     */
    public void restart(Map<String, String> moreEnvironment) throws Exception {
        stopProcess();
        launch(moreEnvironment);
    }

    private void launch(Map<String, String> moreEnvironment) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        ProcessBuilder builder = new ProcessBuilder(command).directory(dataDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        builder.environment().putAll(moreEnvironment);
        long logFrom = Files.exists(log) ? Files.size(log) : 0;
        process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (true) {
            Matcher running = RUNNING.matcher(logSince(logFrom));
            if (running.find()) {
                baseUrl = running.group(1);
                return;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the gateway did not start (" + (process.isAlive() ? "3 minutes" : "exit "
                        + process.exitValue()) + "); its output: " + log + "\n" + tail(logSince(logFrom), 20));
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /**
     * The demo workspace the first start printed (its key has the evaluate scope). A build that printed
     * no demo workspace: a JWT signed with the data directory's key and a workspace made through the admin API.
     */
    public Workspace workspace() throws IOException {
        String output = logSince(0);
        Optional<String> workspaceId = find(WORKSPACE, output);
        Optional<String> apiKey = find(API_KEY, output);
        Optional<String> jwt = find(OWNER_JWT, output);
        if (workspaceId.isPresent() && apiKey.isPresent() && jwt.isPresent()) {
            return new Workspace(workspaceId.get(), apiKey.get(), jwt.get());
        }
        Properties secrets = new Properties();
        try (Reader in = Files.newBufferedReader(dataDir.resolve("secrets.properties"))) {
            secrets.load(in);
        }
        String secret = secrets.getProperty("jwt-hs256-secret");
        String owner = DevJwts.sign(secret, "bench-owner", "bench@local", Duration.ofDays(1));
        String operator = DevJwts.sign(secret, EmbeddedGateway.DEFAULT_OPERATOR, null, Duration.ofDays(1));
        var created = WorkspaceBootstrap.create(new GatewayHttpClient(baseUrl), operator, owner, "benchmark", List.of("evaluate"));
        return new Workspace(created.workspaceId(), created.apiKey(), owner);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + environment.get("GATEWAY_KAFKA_PORT");
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + environment.get("GATEWAY_POSTGRES_PORT") + "/gateway";
    }

    public long pid() {
        return process.pid();
    }

    public GatewayProcesses postgres() {
        return postgres;
    }

    Path jar() {
        return jar;
    }

    List<String> jvmOptions() {
        return jvmOptions;
    }

    public Path log() {
        return log;
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        Directories.deleteRecursively(dataDir);
    }

    /** SIGTERM: the launcher's shutdown hook stops the modules, the broker and PostgreSQL. */
    private void stopProcess() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> postgresProcesses = postgres.postgres().toList();
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            // a PostgreSQL the launcher could not stop in time (pg_ctl starts it detached)
            for (ProcessHandle p : postgresProcesses) {
                if (p.isAlive()) {
                    p.destroy();
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (postgresProcesses.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** The benchmark was interrupted: leave no gateway or PostgreSQL behind. */
    private void destroyNow() {
        Process p = process;
        if (p != null) {
            List<ProcessHandle> postgresProcesses = postgres.postgres().toList();
            p.destroy();
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            postgresProcesses.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
        }
    }

    private String logSince(long offset) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        byte[] bytes = Files.readAllBytes(log);
        return new String(bytes, (int) Math.min(offset, bytes.length), (int) Math.max(0, bytes.length - offset),
                StandardCharsets.UTF_8);
    }

    private static String tail(String text, int lines) {
        String[] all = text.split("\n");
        return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
    }

    static Optional<String> find(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * The gateway jar: {@code bench.gatewayJar}, else this build's launcher jar under {@code launcher/target}
     * of the working directory (the repository root).
     */
    public static Path jarFromSettings() throws IOException {
        String configured = System.getProperty("bench.gatewayJar");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path target = Path.of("launcher", "target");
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "launcher-*-exec.jar")) {
                for (Path candidate : jars) {
                    return candidate;
                }
            }
        }
        return target.resolve("launcher-0.1.0-SNAPSHOT-exec.jar");
    }
}
