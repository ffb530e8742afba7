package io.agentgateway.benchmark;

import io.agentgateway.benchmark.data.SyntheticEventLog;
import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.measure.CpuSampler;
import io.agentgateway.benchmark.measure.CpuTime;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.projector.rebuild.ReadModelRebuild;
import io.agentgateway.projector.rebuild.RebuildResult;
import io.agentgateway.projector.rebuild.RebuildSettings;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

/**
 * How fast the read models are rebuilt from the log: fills the events topic of an embedded default
 * with a realistic history ({@link SyntheticEventLog}), waits until its live projector has projected
 * it all, then runs the rebuild against it (live projector running, as an operator would) and prints
 * events per second. Also checks that the rebuilt tables have the live tables' row counts.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2 -cp benchmark/target/benchmark.jar
 * -Dloader.main=io.agentgateway.benchmark.RebuildBenchmark org.springframework.boot.loader.launch.PropertiesLauncher}
 * Optional system properties: {@code bench.events} (default 200000), {@code bench.workspaces} (default 8),
 * {@code bench.rounds} (rebuilds one after the other, default 1: the first runs on a cold JIT, as the CLI does).
 */
public final class RebuildBenchmark {
    private static final double TARGET_EVENTS_PER_SECOND = 20_000;
    private static final String[] TABLES = {"workspaces", "workspace_members", "api_keys", "policies", "audit_log",
            "approval_requests", "kill_switch_history"};

    private RebuildBenchmark() {}

    public static void main(String[] args) throws Exception {
        int events = Integer.getInteger("bench.events", 200_000);
        int workspaces = Integer.getInteger("bench.workspaces", 8);
        try (EmbeddedGateway gateway = EmbeddedGateway.start(
                LauncherSettings.ephemeral(Files.createTempDirectory("gateway-rebuild-bench-")),
                BenchmarkGateway.PROPERTIES)) {
            long fillStarted = System.nanoTime();
            SyntheticEventLog log = SyntheticEventLog.fill(gateway.bootstrapServers(), events, workspaces);
            System.out.printf(Locale.ROOT, "wrote %,d events (%,d audit rows, %,d approvals, %d workspaces) in %.1f s%n",
                    events, log.auditRows(), log.approvals(), workspaces, (System.nanoTime() - fillStarted) / 1e9);

            long projectStarted = System.nanoTime();
            awaitLiveProjection(gateway, log.auditRows());
            System.out.printf(Locale.ROOT, "the live projector caught up in %.1f s%n", (System.nanoTime() - projectStarted) / 1e9);

            // what the idle gateway (its stream, consumers, broker) spends anyway, to tell it from the rebuild's share
            double idleFrom = CpuTime.jvmSeconds();
            Thread.sleep(10_000);
            double idlePerSecond = (CpuTime.jvmSeconds() - idleFrom) / 10;
            System.out.printf(Locale.ROOT, "the idle gateway spends %.2f CPU seconds per second in this JVM%n", idlePerSecond);

            int rounds = Integer.getInteger("bench.rounds", 1);
            for (int round = 1; round <= rounds; round++) {
                if (rounds > 1) {
                    System.out.printf(Locale.ROOT, "%nround %d of %d%n", round, rounds);
                }
                rebuildOnce(gateway, idlePerSecond);
            }
        }
        // the embedded broker's and the clients' threads are not all daemons
        System.exit(0);
    }

    private static void rebuildOnce(EmbeddedGateway gateway, double idlePerSecond) throws SQLException {
        RebuildResult result;
        Map<String, Double> cpu;
        try (Connection db = connect(gateway); CpuSampler sampler = new CpuSampler(db, "gateway-read-model-rebuild")) {
            result = ReadModelRebuild.run(RebuildSettings.of(gateway.bootstrapServers(), gateway.jdbcUrl(),
                    gateway.postgresUser(), gateway.postgresPassword()), progress -> System.out.println(progress.describe()));
            cpu = sampler.seconds();
        }
        System.out.println(result.describe());
        compareRowCounts(gateway, result.archiveSchema());
        System.out.printf(Locale.ROOT, "%nrebuild: %,.0f events/s over %,d events   (target >= %,.0f)%n",
                result.eventsPerSecond(), result.eventsRead(), TARGET_EVENTS_PER_SECOND);
        System.out.printf(Locale.ROOT, "CPU per event during the rebuild (load average of the machine: %.1f):%n",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        cpu.put("of which the idle gateway's own (measured before)", idlePerSecond * result.duration().toNanos() / 1e9);
        cpu.forEach((part, seconds) -> System.out.printf(Locale.ROOT, "  %-50s %6.1f µs  (%.1f s)%n", part,
                seconds * 1e6 / result.eventsRead(), seconds));
    }

    private static void awaitLiveProjection(EmbeddedGateway gateway, long auditRows) throws Exception {
        try (Connection db = connect(gateway)) {
            while (count(db, "public.audit_log") < auditRows) {
                Thread.sleep(250);
            }
        }
    }

    private static void compareRowCounts(EmbeddedGateway gateway, String archive) throws SQLException {
        try (Connection db = connect(gateway)) {
            for (String table : TABLES) {
                long rebuilt = count(db, "public." + table);
                long live = count(db, archive + "." + table);
                System.out.printf(Locale.ROOT, "  %-20s rebuilt %,9d rows, live %,9d rows%s%n", table, rebuilt, live,
                        rebuilt == live ? "" : "   MISMATCH");
            }
        }
    }

    private static Connection connect(EmbeddedGateway gateway) throws SQLException {
        return DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword());
    }

    private static long count(Connection db, String table) throws SQLException {
        try (var statement = db.createStatement(); ResultSet rows = statement.executeQuery("select count(*) from " + table)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
