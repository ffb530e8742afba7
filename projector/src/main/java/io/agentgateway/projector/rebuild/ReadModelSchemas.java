package io.agentgateway.projector.rebuild;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;

/**
 * The schemas of a rebuild. The read models live in {@code public} (the projector's Flyway history
 * {@code public.flyway_schema_history} with them); a rebuild builds a complete copy in a schema of
 * its own with the projector's own migrations, and the switch moves every table of that schema,
 * the Flyway history included, into {@code public}, after moving the tables of the same names out of
 * {@code public} into an archive schema. Moving a table keeps its indexes and constraints, and
 * PostgreSQL DDL is transactional: readers see the old tables or the new ones, never a mix.
 */
final class ReadModelSchemas {
    /** The projector's migrations (the same location as {@code spring.flyway.locations} of the projector). */
    static final String MIGRATIONS = "classpath:db/migration/projector";
    static final String LIVE = "public";
    static final String REBUILD_PREFIX = "read_models_rebuild_";
    static final String ARCHIVE_PREFIX = "read_models_archive_";

    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss_SSS").withZone(ZoneOffset.UTC);

    private ReadModelSchemas() {}

    /** A name of our own making: only [a-z0-9_], so it needs no quoting anywhere. */
    static String rebuildSchema(Instant startedAt) {
        return REBUILD_PREFIX + SUFFIX.format(startedAt);
    }

    static String archiveSchema(Instant startedAt) {
        return ARCHIVE_PREFIX + SUFFIX.format(startedAt);
    }

    /**
     * Schemas of rebuilds that died before their switch. Only called while holding the rebuild lock,
     * so none of them belongs to a rebuild still running.
     */
    static List<String> dropAbandonedRebuilds(Connection connection) throws SQLException {
        List<String> abandoned = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select nspname from pg_namespace where nspname like '"
                     + REBUILD_PREFIX + "%' order by nspname")) {
            while (rows.next()) {
                abandoned.add(rows.getString(1));
            }
        }
        for (String schema : abandoned) {
            drop(connection, schema);
        }
        return abandoned;
    }

    /** An empty schema, then the projector's migrations into it (with its own Flyway history). */
    static void createAndMigrate(Connection connection, RebuildSettings settings, String schema) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            // created here rather than by Flyway, so its history gets no schema-creation entry naming this
            // schema (it becomes public's history after the switch)
            statement.execute("create schema " + schema);
        }
        Flyway.configure()
                .dataSource(settings.jdbcUrl(), settings.dbUser(), settings.dbPassword())
                .locations(MIGRATIONS)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(false)
                .load()
                .migrate();
    }

    /**
     * Drops the secondary indexes of the schema's tables (those that back no primary key or unique
     * constraint, which the writes need) and returns their definitions. Building an index once over a
     * loaded table is much cheaper than updating it row by row; the switch happens only after
     * {@link #createIndexes} rebuilt every one of them exactly as the migrations defined it.
     */
    static List<String> dropSecondaryIndexes(Connection connection, String schema) throws SQLException {
        List<String> names = new ArrayList<>();
        List<String> definitions = new ArrayList<>();
        try (var statement = connection.prepareStatement("""
                select c.relname, pg_get_indexdef(i.indexrelid)
                  from pg_index i
                  join pg_class c on c.oid = i.indexrelid
                  join pg_namespace n on n.oid = c.relnamespace
                 where n.nspname = ?
                   and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
                 order by c.relname""")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                    definitions.add(rows.getString(2));
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            for (String name : names) {
                statement.execute("drop index " + schema + "." + quoted(name));
            }
        }
        return definitions;
    }

    /** Opens a connection of its own for an index builder. */
    interface ConnectionSource {
        Connection open() throws SQLException;
    }

    /**
     * Builds the indexes on up to {@code parallelism} connections of their own at once, each taking the
     * next definition left: every build is one PostgreSQL backend, so one connection would leave all but
     * one core idle at the end of a rebuild. The tables must be committed (other sessions build them).
     * The first failure is thrown once every builder stopped.
     */
    static void createIndexes(ConnectionSource connections, List<String> definitions, int parallelism)
            throws SQLException {
        Queue<String> left = new ConcurrentLinkedQueue<>(definitions);
        int builders = Math.max(1, Math.min(parallelism, definitions.size()));
        ExecutorService pool = Executors.newFixedThreadPool(builders, runnable -> {
            Thread thread = new Thread(runnable, "read-model-rebuild-index");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (int i = 0; i < builders; i++) {
                running.add(pool.submit(() -> {
                    try (Connection connection = connections.open(); Statement statement = connection.createStatement()) {
                        for (String definition = left.poll(); definition != null; definition = left.poll()) {
                            statement.execute(definition);
                        }
                    } catch (SQLException e) {
                        left.clear(); // the others stop after the index they are building
                        throw e;
                    }
                    return null;
                }));
            }
            SQLException failure = null;
            for (Future<Void> builder : running) {
                try {
                    builder.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof SQLException sql ? sql : new SQLException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while the indexes were built", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static void drop(Connection connection, String schema) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + schema + " cascade");
        }
    }

    /**
     * In the caller's transaction: every table of {@code rebuilt} goes to {@code public}, and the table of
     * the same name already there goes to {@code archive} first. The empty rebuild schema is dropped.
     *
     * @return the tables moved
     */
    static List<String> swap(Connection connection, String rebuilt, String archive) throws SQLException {
        List<String> tables = tablesOf(connection, rebuilt);
        try (Statement statement = connection.createStatement()) {
            statement.execute("create schema " + archive);
            for (String table : tables) {
                statement.execute("alter table if exists " + LIVE + "." + quoted(table) + " set schema " + archive);
            }
            for (String table : tables) {
                statement.execute("alter table " + rebuilt + "." + quoted(table) + " set schema " + LIVE);
            }
            statement.execute("drop schema " + rebuilt);
        }
        return tables;
    }

    private static List<String> tablesOf(Connection connection, String schema) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (var statement = connection.prepareStatement(
                "select tablename from pg_tables where schemaname = ? order by tablename")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
        }
        return tables;
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
