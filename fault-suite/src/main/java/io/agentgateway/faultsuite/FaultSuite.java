package io.agentgateway.faultsuite;

import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * The fault suite, what each fault costs the gateway's guarantees: the distributed gateway as processes
 * ({@link LocalCluster}) under ~100 evaluations/s ({@link LoadGenerator}), one fault at a time, then what each fault
 * cost: sent / answered / 503-504 / missing (acknowledged decisions absent from the audit log) / doubled (two rows for
 * one request) / allows after an acknowledged kill switch / decisions that reached nobody (rows of requests answered
 * 503/504 or not at all) and how many of them are marked undelivered / seconds to recover (from the fault to the last
 * failed request). Then the embedded default, killed with SIGKILL and restarted.
 *
 * <pre>
 * ./mvnw -B -ntp -q package -DskipTests
 * java -Dgateway.repo=. -jar fault-suite/target/fault-suite.jar [at_least_once,exactly_once_v2] [rate]
 * </pre>
 */
public final class FaultSuite {
    private record Fault(String name, Runnable inject, Runnable restore, int restoreAfterSeconds, int observeSeconds) {}

    /** {@code killSwitchAckMs} .. {@code killSwitchLiftMs}: the kill switch was acknowledged and not yet asked to lift. */
    private record Window(String name, long faultAtMs, long endMs, Long killSwitchAckMs, Long killSwitchLiftMs,
                          int killSwitchWorkspace) {}

    private static final int WORKSPACES = 8;
    private static final int KILL_SWITCH_WORKSPACE = 0;

    public static void main(String[] args) {
        try {
            run(args);
            System.exit(0);
        } catch (Throwable failed) {
            // the load generator's threads would keep this JVM (and its load on the machine) alive after main
            failed.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        // the suite's own Kafka admin clients retry loudly while a broker is down on purpose
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.apache.kafka"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
        // "none": the embedded default alone
        List<String> guarantees = List.of((args.length > 0 ? args[0] : "at_least_once,exactly_once_v2").split(",")).stream()
                .filter(g -> !g.isBlank() && !g.equals("none")).toList();
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Path repo = Path.of(System.getProperty("gateway.repo", ".")).toAbsolutePath();
        List<String> tables = new ArrayList<>();
        for (String guarantee : guarantees) {
            Path dir = Files.createTempDirectory("gateway-faults-" + guarantee + "-");
            try (LocalCluster cluster = new LocalCluster(repo, dir, guarantee)) {
                cluster.start();
                tables.add(runCluster(cluster, rate));
            }
            // printed at once too: a later part that fails must not take this one's figures with it
            System.out.println(tables.get(tables.size() - 1));
        }
        if (!Boolean.getBoolean("faults.skipEmbedded")) {
            tables.add(runEmbeddedDefault(repo, rate));
            System.out.println(tables.get(tables.size() - 1));
        }
        System.out.println();
        System.out.println("Load average at the end: " + Files.readString(Path.of("/proc/loadavg")).trim()
                + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
        tables.forEach(System.out::println);
    }

    private static String runCluster(LocalCluster cluster, int rate) throws Exception {
        GatewayHttpClient admin = new GatewayHttpClient(cluster.ingressUrl(0));
        List<String> keys = new ArrayList<>();
        List<String> workspaceIds = new ArrayList<>();
        String ownerJwt = DevJwts.sign(cluster.jwtSecret, "fault-owner", null, Duration.ofHours(6));
        for (int i = 0; i < WORKSPACES; i++) {
            String name = "faults " + i;
            var ws = retry(() -> WorkspaceBootstrap.create(admin, cluster.operatorJwt(), ownerJwt, name,
                    List.of("evaluate")));
            keys.add(ws.apiKey());
            workspaceIds.add(ws.workspaceId());
        }
        List<Fault> faults = List.of(
                new Fault("kill -9 decision-stream", () -> cluster.decisionStreams.get(0).kill9(),
                        () -> cluster.decisionStreams.get(0).start(), 20, 45),
                new Fault("kill -9 broker (neither leading commands-0 nor the controller)",
                        () -> broker(cluster, BrokerVictim.BYSTANDER).kill9(),
                        () -> cluster.brokers.forEach(ClusterProcess::start), 20, 45),
                new Fault("kill -9 leader broker (of commands-0)", () -> broker(cluster, BrokerVictim.LEADER_OF_COMMANDS_0).kill9(),
                        () -> cluster.brokers.forEach(ClusterProcess::start), 20, 45),
                new Fault("kill -9 controller broker (the active KRaft controller)",
                        () -> broker(cluster, BrokerVictim.ACTIVE_CONTROLLER).kill9(),
                        () -> cluster.brokers.forEach(ClusterProcess::start), 20, 45),
                new Fault("stop PostgreSQL 20 s", () -> cluster.postgres.stop(), () -> cluster.postgres.start(), 20, 45),
                new Fault("kill -9 ingress-1", () -> cluster.ingresses.get(0).kill9(), () -> cluster.ingresses.get(0).start(),
                        10, 40),
                new Fault("kill -9 projector", () -> cluster.projector.kill9(), () -> cluster.projector.start(), 10, 35),
                new Fault("kill switch via ingress-2", () -> { }, () -> { }, 0, 20));
        // -Dfaults.only=broker,decision-stream: only the faults whose name contains one of them (a diagnosis run)
        List<String> only = List.of(System.getProperty("faults.only", "").split(","));
        faults = faults.stream().filter(f -> only.stream().anyMatch(f.name()::contains)).toList();
        LoadGenerator load = new LoadGenerator(keys, 2, cluster::ingressUrl);
        List<Window> windows = new ArrayList<>();
        load.start(rate);
        sleep(20); // warm-up, not counted
        long warmUpEnd = System.currentTimeMillis();
        for (Fault fault : faults) {
            sleep(5);
            long faultAt = System.currentTimeMillis();
            LocalCluster.log("fault: " + fault.name());
            Long ackAt = null;
            Long liftAt = null;
            if (fault.name().startsWith("kill switch")) {
                // null: never acknowledged, which the table says (a finding, not a reason to lose the other cells)
                ackAt = killSwitch(cluster, workspaceIds.get(KILL_SWITCH_WORKSPACE), ownerJwt, "enable");
                sleep(fault.observeSeconds());
                // allows are legitimate again from the first attempt to lift it (a timed-out attempt still counts)
                liftAt = System.currentTimeMillis();
                if (ackAt != null && killSwitch(cluster, workspaceIds.get(KILL_SWITCH_WORKSPACE), ownerJwt, "disable") == null) {
                    LocalCluster.log("the kill switch was not lifted: later cells see workspace " + KILL_SWITCH_WORKSPACE + " halted");
                }
            } else {
                PartitionWatch watch = Boolean.getBoolean("faults.watchPartitions") ? PartitionWatch.start(cluster) : null;
                fault.inject().run();
                sleep(fault.restoreAfterSeconds());
                LocalCluster.log("restore: " + fault.name());
                fault.restore().run();
                sleep(fault.observeSeconds() - fault.restoreAfterSeconds());
                if (watch != null) {
                    watch.close();
                }
            }
            windows.add(new Window(fault.name(), faultAt, System.currentTimeMillis(), ackAt, liftAt, KILL_SWITCH_WORKSPACE));
        }
        load.stop();
        LocalCluster.log("load stopped; waiting for the audit log to settle");
        sleep(20);
        Map<String, AuditRow> rows = auditRows(cluster::db);
        String title = "Cluster, " + cluster.guarantee + ", " + rate + " evaluations/s offered, 3 brokers, 2 decision streams,"
                + " 2 ingress";
        return report(title, windows, load.results(), rows, warmUpEnd);
    }

    /**
     * Which broker a broker fault kills. Every broker leads some partitions (3 replicas of 6 on 3 brokers), so what
     * tells the cells apart is whether the victim leads commands-0 and whether it is the active KRaft controller: a
     * dead controller must be replaced before the dead broker can be fenced and its partitions moved, so that cell
     * is measured on its own instead of by chance.
     */
    enum BrokerVictim { BYSTANDER, LEADER_OF_COMMANDS_0, ACTIVE_CONTROLLER }

    /** The broker to kill, logging the commands partitions it leads and whether it is the active controller. */
    private static ClusterProcess broker(LocalCluster cluster, BrokerVictim which) {
        try (Admin admin = cluster.admin()) {
            TopicDescription commands = admin.describeTopics(List.of("gateway.commands.v1")).allTopicNames()
                    .get(10, TimeUnit.SECONDS).get("gateway.commands.v1");
            int leader = commands.partitions().get(0).leader().id();
            int controller = admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS).leaderId();
            int victim = switch (which) {
                case LEADER_OF_COMMANDS_0 -> leader;
                case ACTIVE_CONTROLLER -> controller;
                case BYSTANDER -> IntStream.rangeClosed(1, 3).filter(id -> id != leader && id != controller).findFirst()
                        .orElseThrow();
            };
            List<Integer> leads = commands.partitions().stream()
                    .filter(p -> p.leader() != null && p.leader().id() == victim).map(TopicPartitionInfo::partition).toList();
            LocalCluster.log("killing broker-" + victim + ": leads commands partitions " + leads
                    + (controller == victim ? ", and is the active controller" : ", not the controller (broker-" + controller + " is)"));
            return cluster.brokers.get(victim - 1);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe the commands topic", e);
        }
    }

    /** When the kill switch call was answered 200 through the second replica, or null when 20 attempts were not. */
    private static Long killSwitch(LocalCluster cluster, String workspaceId, String ownerJwt, String action) {
        GatewayHttpClient second = new GatewayHttpClient(cluster.ingressUrl(1));
        for (int attempt = 0; attempt < 20; attempt++) {
            var answer = second.send("POST", "/functions/v1/kill-switch", ownerJwt,
                    Map.of("workspaceId", workspaceId, "action", action));
            if (answer.status() == 200) {
                return System.currentTimeMillis();
            }
            sleep(1);
        }
        LocalCluster.log("kill switch " + action + " not acknowledged in 20 attempts");
        return null;
    }

    /** The embedded default as a process: SIGKILL under load, restarted at once; its PostgreSQL orphan must be taken over. */
    private static String runEmbeddedDefault(Path repo, int rate) throws Exception {
        Path data = Files.createTempDirectory("gateway-embedded-faults-");
        int base = 45000 + ThreadLocalRandom.current().nextInt(0, 200) * 10;
        // the demo workspace has one agent key, and a key may make 50 requests a second (gateway.limits.key-rate):
        // the cell offers its load through that one key, so the key's fair-use limit is raised above it, or half
        // of every second's requests would be answered 429 before and after the kill alike
        Map<String, String> env = Map.of("GATEWAY_DATA_DIR", data.toString(), "SERVER_PORT", "" + base,
                "GATEWAY_KAFKA_PORT", "" + (base + 1), "GATEWAY_POSTGRES_PORT", "" + (base + 2), "LOGGING_LEVEL_ROOT", "WARN",
                "LOGGING_LEVEL_IO_AGENTGATEWAY", "INFO", "GATEWAY_LIMITS_KEYRATE", "" + Math.max(50, 4 * rate),
                "GATEWAY_LIMITS_KEYBURST", "" + Math.max(100, 8 * rate));
        Path jar = repo.resolve("launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar");
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xms512m", "-Xmx1g",
                "-XX:MaxTenuringThreshold=2", "-jar", jar.toString());
        ClusterProcess embedded = new ClusterProcess("embedded", command, env, data.resolve("embedded.log"));
        LocalCluster.log("starting the embedded default");
        embedded.start();
        String url = "http://127.0.0.1:" + base;
        LocalCluster.await("the embedded default's demo workspace", Duration.ofMinutes(5),
                () -> Files.exists(data.resolve("embedded.log")) && grep(data.resolve("embedded.log"), "Agent API key:") != null);
        String key = grep(data.resolve("embedded.log"), "Agent API key:").split("\\s+")[3];
        LoadGenerator load = new LoadGenerator(List.of(key), 1, i -> url);
        load.start(rate);
        sleep(20);
        long warmUpEnd = System.currentTimeMillis();
        sleep(5);
        long faultAt = System.currentTimeMillis();
        LocalCluster.log("fault: kill -9 the embedded default, restarted at once");
        embedded.kill9();
        embedded.start();
        long[] firstOk = {0};
        LocalCluster.await("the restarted embedded default answering", Duration.ofMinutes(5), () -> {
            try {
                var r = new GatewayHttpClient(url).send("POST", "/functions/v1/evaluate-action", key,
                        Map.of("tool", "docs", "action", "page.read", "riskLevel", "low"));
                if (r.status() == 200) {
                    firstOk[0] = System.currentTimeMillis();
                    return true;
                }
            } catch (RuntimeException notYet) {
                // port closed while it starts
            }
            return false;
        });
        sleep(15);
        long end = System.currentTimeMillis();
        load.stop();
        sleep(15);
        String jdbc = "jdbc:postgresql://127.0.0.1:" + (base + 2) + "/gateway";
        Map<String, AuditRow> rows = auditRows(() -> DriverManager.getConnection(jdbc, "postgres", "postgres"));
        String orphan = grep(data.resolve("embedded.log"), "left by a gateway that did not stop");
        embedded.stop();
        String report = report("Embedded default (one process, at_least_once), " + rate + " evaluations/s; restart answered "
                        + String.format(Locale.ROOT, "%.1f", (firstOk[0] - faultAt) / 1000.0) + " s after the kill"
                        + (orphan != null ? "; orphaned PostgreSQL taken over" : "; (no orphaned PostgreSQL seen)"),
                List.of(new Window("kill -9 embedded default", faultAt, end, null, null, -1)), load.results(), rows, warmUpEnd);
        load.close();
        return report;
    }

    record AuditRow(String resourceId, String auditLogId, String decision, boolean undelivered, int count) {}

    interface Db {
        Connection open() throws Exception;
    }

    private static Map<String, AuditRow> auditRows(Db db) throws Exception {
        Map<String, AuditRow> rows = new HashMap<>();
        for (int attempt = 0; ; attempt++) {
            try (Connection c = db.open(); ResultSet rs = c.createStatement().executeQuery(
                    "select resource_id, min(id::text), min(decision), bool_or(undelivered), count(*) from audit_log"
                            + " where resource_id like 'fs-%' group by resource_id")) {
                while (rs.next()) {
                    rows.put(rs.getString(1), new AuditRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                            rs.getInt(5)));
                }
                return rows;
            } catch (Exception e) {
                if (attempt > 20) {
                    throw e;
                }
                sleep(3);
            }
        }
    }

    private static String report(String title, List<Window> windows, List<LoadGenerator.Sent> sent, Map<String, AuditRow> rows,
                                 long countFromMs) {
        StringBuilder out = new StringBuilder("\n" + title + "\n");
        out.append("| Fault | sent | answered 200 | 503 / 504 / no answer | missing | doubled | allows after kill switch"
                + " | reached nobody (marked) | recovered in s |\n|---|---|---|---|---|---|---|---|---|\n");
        long start = countFromMs;
        for (Window w : windows) {
            long from = start;
            List<LoadGenerator.Sent> in = sent.stream().filter(s -> s.sentAtMs() >= from && s.sentAtMs() < w.endMs()).toList();
            start = w.endMs();
            long ok = in.stream().filter(s -> s.status() == 200).count();
            long s503 = in.stream().filter(s -> s.status() == 503).count();
            long s504 = in.stream().filter(s -> s.status() == 504).count();
            long none = in.stream().filter(s -> s.status() == -1).count();
            // any other status (429: a fair-use limit, 401, 500) is a failure too, and must not hide in the totals
            TreeMap<Integer, Long> others = new TreeMap<>(in.stream()
                    .filter(s -> s.status() != 200 && s.status() != 503 && s.status() != 504 && s.status() != -1)
                    .collect(Collectors.groupingBy(LoadGenerator.Sent::status, Collectors.counting())));
            long missing = in.stream().filter(s -> s.status() == 200 && !rows.containsKey("fs-" + s.seq())).count();
            long doubled = in.stream().filter(s -> rows.containsKey("fs-" + s.seq()) && rows.get("fs-" + s.seq()).count() > 1).count();
            long allowsAfterKill = w.killSwitchAckMs() == null ? 0 : in.stream()
                    .filter(s -> s.workspace() == w.killSwitchWorkspace() && s.sentAtMs() > w.killSwitchAckMs()
                            && s.sentAtMs() < w.killSwitchLiftMs())
                    .filter(s -> "allow".equals(s.decision())).count();
            List<AuditRow> nobody = in.stream().filter(s -> s.status() != 200).map(s -> rows.get("fs-" + s.seq()))
                    .filter(r -> r != null).toList();
            long marked = nobody.stream().filter(AuditRow::undelivered).count();
            long markedButAnswered = in.stream().filter(s -> s.status() == 200 && rows.containsKey("fs-" + s.seq())
                    && rows.get("fs-" + s.seq()).undelivered()).count();
            // from the fault until requests succeed again: the last failed request's sending time
            double recovered = in.stream().filter(s -> s.status() != 200 && s.sentAtMs() >= w.faultAtMs())
                    .mapToLong(s -> s.sentAtMs() - w.faultAtMs()).max().orElse(0) / 1000.0;
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d / %d / %d%s | %d | %d | %s | %d (%d)%s | %.1f |%n", w.name(),
                    in.size(), ok, s503, s504, none, others.isEmpty() ? "" : ", other statuses " + others, missing, doubled,
                    w.killSwitchAckMs() != null ? "" + allowsAfterKill
                            : w.name().startsWith("kill switch") ? "never acknowledged" : "n/a",
                    nobody.size(), marked, markedButAnswered > 0 ? " " + markedButAnswered + " answered yet marked" : "",
                    recovered));
        }
        out.append("\nFailed requests per second after each fault (second:count, by sending time):\n");
        for (Window w : windows) {
            TreeMap<Long, Long> perSecond = new TreeMap<>();
            sent.stream().filter(s -> s.status() != 200 && s.sentAtMs() >= w.faultAtMs() && s.sentAtMs() < w.endMs())
                    .forEach(s -> perSecond.merge((s.sentAtMs() - w.faultAtMs()) / 1000, 1L, Long::sum));
            out.append("- ").append(w.name()).append(": ").append(perSecond.isEmpty() ? "none" : perSecond.toString()).append('\n');
        }
        return out.toString();
    }

    private static String grep(Path file, String needle) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.contains(needle)) {
                    return line.substring(line.indexOf(needle));
                }
            }
            return null;
        } catch (Exception e) {
            return null;
        }
    }

    private static <T> T retry(Supplier<T> action) {
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                if (attempt >= 20) {
                    throw e;
                }
                sleep(2);
            }
        }
    }

    static void sleep(int seconds) {
        try {
            Thread.sleep(seconds * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
