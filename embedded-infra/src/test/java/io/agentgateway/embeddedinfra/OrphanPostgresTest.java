package io.agentgateway.embeddedinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A gateway killed with SIGKILL leaves its PostgreSQL running; the next start must stop that orphan
 * (or refuse), never run beside it. The owner here is a real child JVM killed with SIGKILL.
 */
class OrphanPostgresTest {

    @Test
    void anOrphanOfAKilledOwnerIsStoppedAndTheClusterTakenOver() throws Exception {
        Path dir = Files.createTempDirectory("pg-orphan-").resolve("postgres");
        int port = FreePorts.pick();
        Process owner = startOwner(dir, port);
        long orphanPid;
        try {
            orphanPid = awaitReady(owner);
            try (var c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/gateway", "postgres", "postgres")) {
                c.createStatement().execute("create table kept (x int); insert into kept values (42)");
            }
        } finally {
            // the owner dies without closing anything, as with kill -9
            owner.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(ProcessHandle.of(orphanPid)).as("the orphan outlives its owner").hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dir, port)) {
            assertThat(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false))
                    .as("the orphan was shut down").isFalse();
            assertThat(server.pid()).isPositive().isNotEqualTo(orphanPid);
            try (var c = DriverManager.getConnection(server.jdbcUrl("gateway"), "postgres", "postgres")) {
                var rs = c.createStatement().executeQuery("select x from kept");
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the cluster's data survived the takeover").isEqualTo(42);
            }
        } finally {
            Directories.deleteRecursively(dir.getParent());
        }
    }

    @Test
    void aDirectoryInUseByALiveOwnerIsRefused() throws Exception {
        Path dir = Files.createTempDirectory("pg-inuse-").resolve("postgres");
        try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(dir, 0)) {
            long pid = first.pid();
            assertThatThrownBy(() -> EmbeddedPostgresServer.start(dir, 0))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another running gateway");
            // the first server was left alone
            assertThat(first.pid()).isEqualTo(pid);
            try (var c = DriverManager.getConnection(first.jdbcUrl(), "postgres", "postgres")) {
                assertThat(c.isValid(2)).isTrue();
            }
        } finally {
            Directories.deleteRecursively(dir.getParent());
        }
    }

    @Test
    void aPortTakenBySomethingElseIsRefusedByName() throws Exception {
        Path dir = Files.createTempDirectory("pg-port-").resolve("postgres");
        try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> EmbeddedPostgresServer.start(dir, taken.getLocalPort()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + taken.getLocalPort());
        } finally {
            Directories.deleteRecursively(dir.getParent());
        }
    }

    private static Process startOwner(Path dir, int port) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                EmbeddedPostgresServer.class.getName(), dir.toString(), Integer.toString(port))
                .redirectErrorStream(true)
                .start();
    }

    /** Reads the child's output until its READY line; returns the postmaster's pid. */
    private static long awaitReady(Process owner) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
        long[] pid = {-1};
        Thread reader = new Thread(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("READY ")) {
                        pid[0] = Long.parseLong(line.split(" ")[2]);
                    }
                }
            } catch (Exception ignored) {
                // the child was killed
            }
        }, "pg-owner-output");
        reader.setDaemon(true);
        reader.start();
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> pid[0] > 0 || !owner.isAlive());
        assertThat(owner.isAlive()).as("the owner process started PostgreSQL").isTrue();
        return pid[0];
    }
}
