package io.agentgateway.faultsuite;

import io.agentgateway.launcher.ClassDataSharing;
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
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;

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
    /**
     * One cell: {@code inject} makes the fault (and says what it did, for the cell's notes), {@code restore} undoes it
     * {@code restoreAfterSeconds} later (and says what it saw), and the cell is watched until {@code observeSeconds}
     * after the inject returned.
     */
    private record Fault(String name, Step inject, Step restore, int restoreAfterSeconds, int observeSeconds) {}

    /** What a cell's step did, for its notes; it may move the cell's fault time (a kill after a restart). */
    private interface Step {
        String run(Cell cell);
    }

    /** A cell while it runs: its fault time and its notes. */
    private static final class Cell {
        volatile long faultAtMs = System.currentTimeMillis();
        /** When the killed ingress replica was started again (its first answer after it is its start-to-serve time). */
        volatile long ingressRestartedAtMs;
        final List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());
    }

    /** {@code killSwitchAckMs} .. {@code killSwitchLiftMs}: the kill switch was acknowledged and not yet asked to lift. */
    private record Window(String name, long faultAtMs, long endMs, Long killSwitchAckMs, Long killSwitchLiftMs,
                          int killSwitchWorkspace, List<String> notes, long ingressRestartedAtMs) {}

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
        List<Fault> faults = clusterFaults(cluster);
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
            long healing = cluster.awaitWhole(Duration.ofMinutes(3));
            if (healing > 1000) {
                LocalCluster.log("waited " + healing / 1000 + " s for the cluster to be whole again");
            }
            Cell cell = new Cell();
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
                ThreadDumps dumps = Boolean.getBoolean("faults.threadDumps") ? ThreadDumps.start(cluster) : null;
                note(cell, fault.inject().run(cell));
                sleep(fault.restoreAfterSeconds());
                LocalCluster.log("restore: " + fault.name());
                note(cell, fault.restore().run(cell));
                sleep(fault.observeSeconds() - fault.restoreAfterSeconds());
                if (watch != null) {
                    watch.close();
                }
                if (dumps != null) {
                    dumps.close();
                }
            }
            windows.add(new Window(fault.name(), cell.faultAtMs, System.currentTimeMillis(), ackAt, liftAt, KILL_SWITCH_WORKSPACE,
                    List.copyOf(cell.notes), cell.ingressRestartedAtMs));
        }
        load.stop();
        LocalCluster.log("load stopped; waiting for the audit log to settle");
        sleep(20);
        Map<String, AuditRow> rows = auditRows(cluster::db);
        writeRequests(cluster.dir.resolve("requests.csv"), load.results(), rows);
        KillSwitches switches = killSwitches(cluster::db);
        String title = "Cluster, " + cluster.guarantee + ", " + rate + " evaluations/s offered, 3 brokers, 2 decision streams,"
                + " 2 ingress";
        return report(title, windows, load.results(), rows, switches, warmUpEnd);
    }

    /**
     * The cells of a cluster run, in order. The decision streams: a crash; a rolling restart with new settings (a
     * configuration change); a crash right after both were restarted with new settings. The brokers: each one killed
     * in turn, first the one leading the most loaded partitions, then the active controller (or, once that broker was
     * killed already, the one coordinating the most of the gateway's groups), then the last: between them every group's
     * coordinator is killed once. Then PostgreSQL, an ingress replica, the projector and a kill switch.
     */
    private static List<Fault> clusterFaults(LocalCluster cluster) {
        Set<Integer> killedBrokers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Step restartKilledStream = cell -> {
            startWatched(cluster, cluster.decisionStreams.get(0), "decision stream state RUNNING", cell);
            watch(cell, "decision-stream-1 deciding again", cluster.decisionStreams.get(0).startedAtMs(),
                    () -> cluster.decisionStreamReady(0));
            return null;
        };
        Step startBrokers = cell -> {
            cluster.brokers.forEach(ClusterProcess::start);
            return null;
        };
        return List.of(
                new Fault("kill -9 decision-stream", cell -> {
                    cluster.decisionStreams.get(0).kill9();
                    return null;
                }, restartKilledStream, 20, 45),
                new Fault("rolling restart of the decision streams (new settings)", cell -> rollingRestart(cluster,
                        ROLLING_RESTART_SETTINGS), cell -> null, 0, 20),
                new Fault("kill -9 decision-stream during a restart of both with new settings", cell -> {
                    // the crash comes while the restart is still under way: decision-stream-2 is back in the group
                    // with copies only, and the instance that decides everything dies
                    LocalCluster.StreamStart first = cluster.restartDecisionStream(0, SETTINGS_BEFORE_KILL);
                    LocalCluster.StreamStart second = cluster.restartDecisionStream(1, SETTINGS_BEFORE_KILL, false);
                    cell.faultAtMs = System.currentTimeMillis();
                    cluster.decisionStreams.get(0).kill9();
                    return String.format(Locale.ROOT, "restarted with %s: decision-stream-1 deciding %.1f s after its start,"
                            + " decision-stream-2 RUNNING %.1f s after its start; decision-stream-1 killed then (the fault time)",
                            SETTINGS_BEFORE_KILL, first.decidingMs() / 1000.0, second.runningMs() / 1000.0);
                }, restartKilledStream, 20, 45),
                new Fault("kill -9 broker (1st: leading the most loaded partitions)",
                        cell -> killBroker(cluster, cell, killedBrokers, BrokerVictim.MOST_LOADED), startBrokers, 20, 45),
                new Fault("kill -9 broker (2nd: the active controller, else the busiest coordinator)",
                        cell -> killBroker(cluster, cell, killedBrokers, BrokerVictim.CONTROLLER), startBrokers, 20, 45),
                new Fault("kill -9 broker (3rd: the last one)",
                        cell -> killBroker(cluster, cell, killedBrokers, BrokerVictim.LAST), startBrokers, 20, 45),
                new Fault("stop PostgreSQL 20 s", cell -> {
                    cluster.postgres.stop();
                    return null;
                }, cell -> {
                    cluster.postgres.start();
                    return null;
                }, 20, 45),
                new Fault("kill -9 ingress-1", cell -> {
                    cluster.ingresses.get(0).kill9();
                    return null;
                }, cell -> {
                    cluster.ingresses.get(0).start();
                    cell.ingressRestartedAtMs = cluster.ingresses.get(0).startedAtMs();
                    watch(cell, "ingress-1 ready (its readiness UP)", cluster.ingresses.get(0).startedAtMs(),
                            () -> cluster.ingressReady(0));
                    return null;
                }, 10, 40),
                new Fault("kill -9 projector", cell -> {
                    cluster.projector.kill9();
                    return null;
                }, cell -> {
                    cluster.projector.start();
                    return null;
                }, 10, 35),
                new Fault("kill switch via ingress-2", cell -> null, cell -> null, 0, 20));
    }

    /**
     * The settings of the rolling restart: a longer session (a configuration change an operator makes), and then, for
     * the crash right after a restart, the default again.
     */
    private static final Map<String, String> ROLLING_RESTART_SETTINGS = Map.of("GATEWAY_DECISION_SESSIONTIMEOUT", "PT8S");
    private static final Map<String, String> SETTINGS_BEFORE_KILL = Map.of("GATEWAY_DECISION_SESSIONTIMEOUT", "PT6S");

    /** Each decision-stream instance in turn, as an operator rolls a change out: stopped, started, back in a Stable group. */
    private static String rollingRestart(LocalCluster cluster, Map<String, String> settings) {
        List<String> figures = new ArrayList<>();
        for (int i = 0; i < cluster.decisionStreams.size(); i++) {
            LocalCluster.StreamStart start = cluster.restartDecisionStream(i, settings);
            figures.add(String.format(Locale.ROOT, "decision-stream-%d RUNNING %.1f s and deciding %.1f s after its start",
                    i + 1, start.runningMs() / 1000.0, start.decidingMs() / 1000.0));
        }
        return "restarted with " + settings + ": " + String.join(", ", figures);
    }

    /** Starts {@code process} and notes, once it logs {@code readyLine}, how long after its start that was. */
    private static String startWatched(LocalCluster cluster, ClusterProcess process, String readyLine, Cell cell) {
        long offset = cluster.logSize(process);
        process.start();
        long started = process.startedAtMs();
        Thread watcher = new Thread(() -> {
            try {
                long at = cluster.awaitLogLine(process, readyLine, offset, Duration.ofMinutes(2));
                cell.notes.add(String.format(Locale.ROOT, "%s restarted: RUNNING %.1f s after its start", process.name,
                        (at - started) / 1000.0));
            } catch (IllegalStateException notInTime) {
                cell.notes.add(process.name + " restarted: not RUNNING within 2 minutes of its start");
            }
        }, "watch-" + process.name);
        watcher.setDaemon(true);
        watcher.start();
        return null;
    }

    /** Notes, once {@code ready} holds, how long after {@code sinceMs} that was. */
    private static void watch(Cell cell, String what, long sinceMs, java.util.function.BooleanSupplier ready) {
        Thread watcher = new Thread(() -> {
            try {
                LocalCluster.await(what, Duration.ofMinutes(2), ready);
                cell.notes.add(String.format(Locale.ROOT, "%s %.1f s after its start", what,
                        (System.currentTimeMillis() - sinceMs) / 1000.0));
            } catch (IllegalStateException notInTime) {
                cell.notes.add(what + ": not within 2 minutes");
            }
        }, "watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Which broker a broker fault kills. Each broker is killed once per run: first the one leading the most loaded
     * partitions (commands, events, the replicas' replies), then the active KRaft controller (a dead controller must be
     * replaced before the dead broker can be fenced) or, if that broker was killed already, the one coordinating the
     * most of the gateway's groups, then the one left. Every group's coordinator is on one of them when it is killed.
     */
    enum BrokerVictim { MOST_LOADED, CONTROLLER, LAST }

    /** Kills the chosen broker and says what it was doing (partitions led, controller, groups and transactions coordinated). */
    private static String killBroker(LocalCluster cluster, Cell cell, Set<Integer> killed, BrokerVictim which) {
        try (Admin admin = cluster.admin()) {
            List<LocalCluster.BrokerRoles> roles = new ArrayList<>();
            for (int node = 1; node <= cluster.brokers.size(); node++) {
                roles.add(cluster.brokerRoles(admin, node));
            }
            List<LocalCluster.BrokerRoles> candidates = roles.stream().filter(r -> !killed.contains(r.node())).toList();
            LocalCluster.BrokerRoles victim = switch (which) {
                case MOST_LOADED -> candidates.stream()
                        .max(Comparator.comparingInt(LocalCluster.BrokerRoles::loadedPartitionsLed)).orElseThrow();
                case CONTROLLER -> candidates.stream().filter(LocalCluster.BrokerRoles::controller).findFirst()
                        .orElseGet(() -> candidates.stream().max(Comparator.comparingInt(
                                (LocalCluster.BrokerRoles r) -> r.coordinates().size())).orElseThrow());
                case LAST -> candidates.get(0);
            };
            killed.add(victim.node());
            LocalCluster.log("killing " + victim);
            // the fault time is the kill's, not the cell's start: describing the brokers takes seconds on a loaded machine
            cell.faultAtMs = System.currentTimeMillis();
            cluster.brokers.get(victim.node() - 1).kill9();
            return "killed " + victim;
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe what the brokers do", e);
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
        // below the ephemeral range, and apart from the cluster's blocks (LocalCluster.freeBlock)
        int base = 12000 + ThreadLocalRandom.current().nextInt(0, 600) * 10;
        // the demo workspace has one agent key, and a key may make 50 requests a second (gateway.limits.key-rate):
        // the cell offers its load through that one key, so the key's fair-use limit is raised above it, or half
        // of every second's requests would be answered 429 before and after the kill alike
        Map<String, String> env = Map.of("GATEWAY_DATA_DIR", data.toString(), "SERVER_PORT", "" + base,
                "GATEWAY_KAFKA_PORT", "" + (base + 1), "GATEWAY_POSTGRES_PORT", "" + (base + 2), "LOGGING_LEVEL_ROOT", "WARN",
                "LOGGING_LEVEL_IO_AGENTGATEWAY", "INFO", "GATEWAY_LIMITS_KEYRATE", "" + Math.max(50, 4 * rate),
                "GATEWAY_LIMITS_KEYBURST", "" + Math.max(100, 8 * rate));
        Path jar = repo.resolve("launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> options = List.of("-Xms512m", "-Xmx1g", "-XX:MaxTenuringThreshold=2");
        List<String> command;
        if (LocalCluster.useClassDataSharing()) {
            // a whole training start in a data directory of its own, stopped cleanly once it answers: the archive is
            // written at its exit (cut off at its first context, it would leave its broker and PostgreSQL behind)
            ClassDataSharing cds = ClassDataSharing.extract(java, jar, data.resolveSibling(data.getFileName() + "-app"));
            Path trainingData = Files.createTempDirectory("gateway-embedded-training-");
            Map<String, String> trainingEnv = new HashMap<>(env);
            trainingEnv.put("GATEWAY_DATA_DIR", trainingData.toString());
            long ms = cds.trainUntilReady(java, options, List.of(), trainingEnv,
                    () -> grep(cds.archive().resolveSibling("training.log"), "Agent API key:") != null, Duration.ofMinutes(5));
            LocalCluster.log("the embedded default: class data archive written by a training start of " + ms + " ms");
            command = cds.command(java, options, List.of());
        } else {
            command = new ArrayList<>(List.of(java));
            command.addAll(options);
            command.addAll(List.of("-jar", jar.toString()));
        }
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
                List.of(new Window("kill -9 embedded default", faultAt, end, null, null, -1, List.of(), 0)), load.results(), rows,
                KillSwitches.NONE, warmUpEnd);
        load.close();
        return report;
    }

    /** @param sequence the entry's place in its workspace's log (sealed evidence), null when not sealed */
    record AuditRow(String resourceId, String auditLogId, String decision, boolean undelivered, int count, String workspaceId,
                    Long sequence) {}

    /**
     * Each workspace's kill switch changes in log order (their sealed sequence): an entry decided between an enable and
     * the next disable was decided while the workspace was halted. That is the invariant itself, whatever the
     * requests' sending times; an allow answered to a request sent before the lift was asked for but decided after the
     * lift (it waited in a stalled process meanwhile) is not one.
     */
    record KillSwitches(Map<String, TreeMap<Long, Boolean>> enabledFrom) {
        static final KillSwitches NONE = new KillSwitches(Map.of());

        boolean haltedAt(AuditRow row) {
            if (row == null || row.sequence() == null || !enabledFrom.containsKey(row.workspaceId())) {
                return false;
            }
            Map.Entry<Long, Boolean> last = enabledFrom.get(row.workspaceId()).floorEntry(row.sequence());
            return last != null && last.getValue();
        }

        boolean known() {
            return !enabledFrom.isEmpty();
        }
    }

    private static KillSwitches killSwitches(Db db) throws Exception {
        Map<String, TreeMap<Long, Boolean>> changes = new HashMap<>();
        try (Connection c = db.open(); ResultSet rs = c.createStatement().executeQuery(
                "select workspace_id::text, action, sequence from audit_log where kind = 'kill_switch' and sequence is not null")) {
            while (rs.next()) {
                changes.computeIfAbsent(rs.getString(1), ws -> new TreeMap<>())
                        .put(rs.getLong(3), "kill_switch.enable".equals(rs.getString(2)));
            }
        }
        return new KillSwitches(changes);
    }

    interface Db {
        Connection open() throws Exception;
    }

    private static Map<String, AuditRow> auditRows(Db db) throws Exception {
        Map<String, AuditRow> rows = new HashMap<>();
        for (int attempt = 0; ; attempt++) {
            try (Connection c = db.open(); ResultSet rs = c.createStatement().executeQuery(
                    "select resource_id, min(id::text), min(decision), bool_or(undelivered), count(*), min(workspace_id::text),"
                            + " min(sequence) from audit_log where resource_id like 'fs-%' group by resource_id")) {
                while (rs.next()) {
                    long sequence = rs.getLong(7);
                    rows.put(rs.getString(1), new AuditRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                            rs.getInt(5), rs.getString(6), rs.wasNull() ? null : sequence));
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

    /** Every request with its answer and audit row, for looking at a cell's failures one by one. */
    private static void writeRequests(Path file, List<LoadGenerator.Sent> sent, Map<String, AuditRow> rows) {
        StringBuilder csv = new StringBuilder("seq,workspace,ingress,sent_at_ms,status,decision,answered_at_ms,audit_rows,undelivered,"
                + "sequence\n");
        sent.stream().sorted(Comparator.comparingLong(LoadGenerator.Sent::seq)).forEach(s -> {
            AuditRow row = rows.get("fs-" + s.seq());
            csv.append(s.seq()).append(',').append(s.workspace()).append(',').append(s.ingress()).append(',')
                    .append(s.sentAtMs()).append(',').append(s.status()).append(',').append(s.decision()).append(',')
                    .append(s.answeredAtMs()).append(',').append(row == null ? 0 : row.count()).append(',')
                    .append(row != null && row.undelivered()).append(',').append(row == null ? null : row.sequence()).append('\n');
        });
        try {
            Files.writeString(file, csv);
        } catch (java.io.IOException e) {
            LocalCluster.log("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static void note(Cell cell, String note) {
        if (note != null) {
            cell.notes.add(note);
        }
    }

    private static String report(String title, List<Window> windows, List<LoadGenerator.Sent> sent, Map<String, AuditRow> rows,
                                 KillSwitches switches, long countFromMs) {
        StringBuilder out = new StringBuilder("\n" + title + "\n");
        out.append("| Fault | sent | answered 200 | 503 / 504 / no answer | missing | doubled | allows after kill switch"
                + " | reached nobody (marked) | recovered in s | longest stretch of failures s |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
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
            // answered allow though decided while its workspace was halted (log order, when the entries are sealed);
            // without seals: sent after the kill switch's acknowledgement and before its lift was asked for
            long allowsAfterKill = w.killSwitchAckMs() == null ? 0 : switches.known()
                    ? in.stream().filter(s -> "allow".equals(s.decision()) && switches.haltedAt(rows.get("fs-" + s.seq()))).count()
                    : in.stream()
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
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d / %d / %d%s | %d | %d | %s | %d (%d)%s | %.1f | %.1f |%n", w.name(),
                    in.size(), ok, s503, s504, none, others.isEmpty() ? "" : ", other statuses " + others, missing, doubled,
                    w.killSwitchAckMs() != null ? "" + allowsAfterKill
                            : w.name().startsWith("kill switch") ? "never acknowledged" : "n/a",
                    nobody.size(), marked, markedButAnswered > 0 ? " " + markedButAnswered + " answered yet marked" : "",
                    recovered, longestStretch(in) / 1000.0));
        }
        out.append("\nWhat each fault did and what came back:\n");
        for (Window w : windows) {
            List<String> notes = new ArrayList<>(w.notes());
            if (w.ingressRestartedAtMs() > 0) {
                // serving: its first evaluation answered 200 among those sent to it after its start
                sent.stream().filter(s -> s.ingress() == 0 && s.status() == 200 && s.sentAtMs() >= w.ingressRestartedAtMs())
                        .mapToLong(LoadGenerator.Sent::answeredAtMs).min()
                        .ifPresent(at -> notes.add(String.format(Locale.ROOT, "ingress-1 serving (its first 200) %.1f s after its start",
                                (at - w.ingressRestartedAtMs()) / 1000.0)));
            }
            if (!notes.isEmpty()) {
                out.append("- ").append(w.name()).append(": ").append(String.join("; ", notes)).append('\n');
            }
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

    /**
     * The longest time decisions failed without a second's break (failures by sending time, joined while less than a
     * second apart): what a rolling restart or a failover cost at its worst, wherever in the window it fell.
     */
    static long longestStretch(List<LoadGenerator.Sent> in) {
        long[] failures = in.stream().filter(s -> s.status() != 200).mapToLong(LoadGenerator.Sent::sentAtMs).sorted().toArray();
        long longest = 0;
        for (int i = 0, first = 0; i < failures.length; i++) {
            if (i > 0 && failures[i] - failures[i - 1] >= 1000) {
                first = i;
            }
            longest = Math.max(longest, failures[i] - failures[first]);
        }
        return longest;
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
