package io.agentgateway.embeddedinfra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server started from the binaries that zonky ships as a Maven artifact (no
 * installation, no Docker). With a data directory it keeps its data across restarts; without one it
 * uses a fresh temporary cluster.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final String USER = "postgres";
    private static final String DATABASE = "postgres";

    private final EmbeddedPostgres postgres;
    private final Path dataDir;
    private final boolean temporary;
    private final DataDirectoryGuard guard;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDir, boolean temporary, DataDirectoryGuard guard) {
        this.postgres = postgres;
        this.dataDir = dataDir;
        this.temporary = temporary;
        this.guard = guard;
    }

    /**
     * @param dataDir where the cluster lives; null for a temporary one deleted on close
     * @param port    the port on localhost; 0 for a free one
     * @throws IllegalStateException when another live process uses the data directory or the port, or an
     *         orphaned PostgreSQL of a crashed owner on it does not stop ({@link DataDirectoryGuard})
     */
    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        DataDirectoryGuard guard = null;
        try {
            boolean temporary = dataDir == null;
            Path dir = temporary ? Files.createTempDirectory("gateway-postgres-") : dataDir.toAbsolutePath();
            Files.createDirectories(dir);
            // a kept cluster may have an orphan of a crashed owner: stop it or refuse, never run beside it
            guard = temporary ? null : DataDirectoryGuard.acquire(dir, port);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    // keep an existing cluster: the embedded default survives restarts
                    .setCleanDataDirectory(temporary)
                    .setPort(port == 0 ? FreePorts.pick() : port)
                    // the library gives up after 10 s; a first start (initdb) on a loaded 2-core machine took longer
                    // and the whole gateway then refused to start
                    .setPGStartupWait(java.time.Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    // durability of a throwaway test cluster is not worth an fsync per commit
                    .setServerConfig("fsync", temporary ? "off" : "on")
                    .setServerConfig("synchronous_commit", temporary ? "off" : "on")
                    .start();
            log.info("PostgreSQL listening on port {} with data in {}", postgres.getPort(), dir);
            return new EmbeddedPostgresServer(postgres, dir, temporary, guard);
        } catch (IOException | RuntimeException e) {
            if (guard != null) {
                guard.close();
            }
            if (e instanceof IllegalStateException state) {
                throw state;
            }
            throw new IllegalStateException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** The PID of the running postmaster, from its {@code postmaster.pid}. */
    public long pid() {
        return DataDirectoryGuard.runningPostmaster(dataDir).map(ProcessHandle::pid).orElse(-1L);
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database;
    }

    public String username() {
        return USER;
    }

    public String password() {
        return USER;
    }

    /** Creates a database if it does not exist yet and returns its JDBC URL. */
    public String ensureDatabase(String name) {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            var rs = s.executeQuery("select 1 from pg_database where datname = '" + name.replace("'", "''") + "'");
            if (!rs.next()) {
                s.execute("create database \"" + name.replace("\"", "") + "\"");
            }
            return jdbcUrl(name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
    }

    /** A fresh, empty database for one test class; returns its JDBC URL. */
    public String createDatabase(String prefix) {
        String name = (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return ensureDatabase(name);
    }

    private boolean closed;

    /** Stops the server; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            postgres.close();
        } catch (IOException e) {
            log.warn("PostgreSQL did not stop cleanly: {}", e.getMessage());
        }
        if (guard != null) {
            guard.close();
        }
        if (temporary) {
            Directories.deleteRecursively(dataDir);
        }
    }

    /**
     * Runs a PostgreSQL in a process of its own until it is stopped (SIGTERM / SIGINT), for tests that
     * kill its owner with SIGKILL and for the local cluster. Arguments: data directory, port. Prints
     * {@code READY <port> <pid>} once it serves.
     */
    public static void main(String[] args) throws InterruptedException {
        EmbeddedPostgresServer server = start(Path.of(args[0]), Integer.parseInt(args[1]));
        server.ensureDatabase("gateway");
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-shutdown"));
        System.out.println("READY " + server.port() + " " + server.pid());
        System.out.flush();
        Thread.currentThread().join();
    }
}
