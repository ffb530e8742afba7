package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.consume.EventRecordPlanner;
import io.agentgateway.projector.consume.PlannedEvent;
import io.agentgateway.projector.readmodel.EventWritePlanner;
import io.agentgateway.projector.readmodel.ReadModelSwitchLock;
import io.agentgateway.projector.rebuild.RebuildProgress.Phase;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds every read model from the events topic into fresh tables and switches the live projection
 * to them, without losing an event that arrives meanwhile.
 *
 * <ol>
 *   <li>Takes the rebuild lock (a session advisory lock: one rebuild per database at a time) and drops
 *       the schemas of rebuilds that died before their switch.</li>
 *   <li>Creates an empty schema {@code read_models_rebuild_<time>} and runs the projector's own Flyway
 *       migrations into it.</li>
 *   <li>Replays the events topic from offset 0 into it, with the live projector's planning and
 *       statements, in large transactions, while the live projector goes on; chases the end of the log
 *       until what is left is small. For speed: the secondary indexes are dropped for the load and built
 *       once after it (from their own definitions), the append-only rows go through COPY into a staging
 *       table and the live statement's own expressions ({@code WriteBatches.forBulkLoad}), and a writer
 *       thread owns the connection so that reading and parsing overlap with PostgreSQL's work.</li>
 *   <li>Switch, in one transaction: takes the {@link ReadModelSwitchLock} exclusively (the live projector
 *       finishes the batch it is writing and then waits), reads the log up to its end as of that moment,
 *       writes it, moves the live tables to {@code read_models_archive_<time>} and the rebuilt ones (with
 *       their Flyway history) into {@code public}, commits.</li>
 * </ol>
 *
 * After the commit the live projector's waiting batch, and every later one, writes into the new tables.
 * Its committed offsets are behind the rebuild's end at most, so it re-applies some events the rebuild
 * already wrote: its writes are idempotent and version-guarded, so those are no-ops, and every event
 * after the rebuild's end is written by it. Nothing is lost and nothing doubles.
 */
public final class ReadModelRebuild {
    private static final Logger log = LoggerFactory.getLogger(ReadModelRebuild.class);

    /** Session-level advisory lock ("agw-rbld"): one rebuild per database at a time. */
    public static final long REBUILD_LOCK_KEY = 0x6167772d72626c64L;
    private static final String LOCK_TIMEOUT_SQLSTATE = "55P03";
    private static final Duration POLL = Duration.ofMillis(200);
    /** Index builds at once at the end of the replay: one PostgreSQL backend each. */
    private static final int INDEX_BUILDERS = Math.min(4, Runtime.getRuntime().availableProcessors());

    private final RebuildSettings settings;
    private final Consumer<RebuildProgress> listener;
    private final EventRecordPlanner planner = new EventRecordPlanner(new EventWritePlanner());
    private final Deserializer<EventEnvelope> parser = Topics.EVENTS.valueSerde().deserializer();
    private final SkipCounts skipped = new SkipCounts();

    private ReadModelRebuild(RebuildSettings settings, Consumer<RebuildProgress> listener) {
        this.settings = settings;
        this.listener = listener;
    }

    /**
     * @param progress told how far the rebuild is, every {@link RebuildSettings#progressInterval()}
     * @throws RebuildException if it did not switch; the live read models are then unchanged
     */
    public static RebuildResult run(RebuildSettings settings, Consumer<RebuildProgress> progress) {
        return new ReadModelRebuild(settings, progress).run();
    }

    private RebuildResult run() {
        Instant startedAt = Instant.now();
        try (Connection connection = connect()) {
            takeRebuildLock(connection);
            List<String> abandoned = ReadModelSchemas.dropAbandonedRebuilds(connection);
            if (!abandoned.isEmpty()) {
                log.warn("Dropped the schemas of rebuilds that did not finish: {}", abandoned);
            }
            try (EventLogReader events = EventLogReader.fromTheBeginning(settings.bootstrapServers(), settings.timeout())) {
                String schema = ReadModelSchemas.rebuildSchema(startedAt);
                try {
                    ReadModelSchemas.createAndMigrate(connection, settings, schema);
                    return replayAndSwitch(connection, events, schema, ReadModelSchemas.archiveSchema(startedAt));
                } catch (SQLException | RuntimeException e) {
                    abandon(connection, schema);
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new RebuildException(describe(e), e);
        } catch (FlywayException e) {
            throw new RebuildException("the projector's migrations failed in the rebuild schema: " + e.getMessage(), e);
        } catch (KafkaException e) {
            throw EventLogReader.unreachable(settings.bootstrapServers(), settings.timeout(), e);
        }
    }

    private RebuildResult replayAndSwitch(Connection connection, EventLogReader events, String schema, String archive)
            throws SQLException {
        List<String> indexes = ReadModelSchemas.dropSecondaryIndexes(connection, schema);
        writeInto(connection, schema);
        RebuildWriter writer = new RebuildWriter(connection, skipped);
        ProgressTracker progress = new ProgressTracker(events, listener, settings.progressInterval());
        try (WriterThread database = new WriterThread()) {
            // the bulk of the log, while the live projector goes on; then the indexes, built once
            catchUp(events, progress, database, writer);
            // committed first: the indexes are built by connections of their own, in parallel (the rebuild
            // schema is the rebuild's alone, nothing reads it before the switch)
            database.runAndWait(writer::commit);
            ReadModelSchemas.createIndexes(this::connect, indexes, INDEX_BUILDERS);
            // what arrived while the indexes were built, so that little is left for the switch
            catchUp(events, progress, database, writer);
            progress.report(Phase.REPLAYING);

            // the switch: the rest of the log and the swap in one transaction, the live projector held meanwhile
            long lockRequestedAt = System.nanoTime();
            database.runAndWait(() -> holdLiveProjector(connection));
            long lockedAt = System.nanoTime();
            log.info("Took the switch lock after {} ms", (lockedAt - lockRequestedAt) / 1_000_000);
            Map<TopicPartition, Long> end = events.endOffsets();
            while (!events.reached(end)) {
                List<PlannedEvent> chunk = readOnce(events, progress);
                database.submit(() -> writer.write(chunk));
                progress.tick(Phase.SWITCHING);
            }
            List<String> tables = new ArrayList<>();
            database.runAndWait(() -> {
                tables.addAll(ReadModelSchemas.swap(connection, schema, archive));
                writer.commit();
            });
            Duration pause = Duration.ofNanos(System.nanoTime() - lockedAt);
            progress.report(Phase.SWITCHING);
            return new RebuildResult(progress.eventsRead(), writer.projected(), skipped.snapshot(), progress.elapsed(),
                    pause, archive, List.copyOf(tables));
        }
    }

    /**
     * Reads and writes until what is left of the log is within {@link RebuildSettings#switchWithinEvents()},
     * chasing its end while it grows, committing every {@link RebuildSettings#eventsPerTransaction()} events.
     */
    private void catchUp(EventLogReader events, ProgressTracker progress, WriterThread database, RebuildWriter writer)
            throws SQLException {
        long uncommitted = 0;
        Map<TopicPartition, Long> target = events.endOffsets();
        while (true) {
            while (!events.reached(target)) {
                List<PlannedEvent> chunk = readOnce(events, progress);
                if (!chunk.isEmpty()) {
                    database.submit(() -> writer.write(chunk));
                    uncommitted += chunk.size();
                }
                if (uncommitted >= settings.eventsPerTransaction()) {
                    database.submit(writer::commit);
                    uncommitted = 0;
                }
                progress.tick(Phase.REPLAYING);
            }
            Map<TopicPartition, Long> latest = events.endOffsets();
            if (events.remaining(latest) <= settings.switchWithinEvents()) {
                break;
            }
            target = latest;
        }
        database.runAndWait(writer::commit);
    }

    /** One poll's worth of events, planned (skipped records are counted, not returned). */
    private List<PlannedEvent> readOnce(EventLogReader events, ProgressTracker progress) {
        var records = events.poll(POLL);
        progress.read(records.count());
        List<PlannedEvent> planned = new ArrayList<>(records.count());
        for (ConsumerRecord<String, byte[]> record : records) {
            PlannedEvent event = planner.plan(record.topic(), record.partition(), record.offset(), parse(record),
                    record.headers(), skipped::add);
            if (event != null) {
                planned.add(event);
            }
        }
        return planned;
    }

    /** Null for a record that does not parse, as the live projector's error-handling deserializer gives it. */
    private EventEnvelope parse(ConsumerRecord<String, byte[]> record) {
        try {
            return parser.deserialize(record.topic(), record.value());
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private Connection connect() throws SQLException {
        Properties props = new Properties();
        if (settings.dbUser() != null) {
            props.setProperty("user", settings.dbUser());
        }
        if (settings.dbPassword() != null) {
            props.setProperty("password", settings.dbPassword());
        }
        // a JDBC batch of inserts becomes multi-row inserts: far fewer statements for the audit log
        props.setProperty("reWriteBatchedInserts", "true");
        props.setProperty("ApplicationName", "gateway-read-model-rebuild");
        props.setProperty("connectTimeout", Long.toString(Math.max(1, settings.timeout().toSeconds())));
        return DriverManager.getConnection(settings.jdbcUrl(), props);
    }

    private static void takeRebuildLock(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet locked = statement.executeQuery("select pg_try_advisory_lock(" + REBUILD_LOCK_KEY + ")")) {
            locked.next();
            if (!locked.getBoolean(1)) {
                throw new RebuildException("another rebuild of these read models is running; nothing was changed");
            }
        }
    }

    /** From here on, the connection's transactions are the rebuild's: unqualified names mean the new tables. */
    private static void writeInto(Connection connection, String schema) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("set search_path to " + schema);
            // the tables are nobody's yet: a crash would only mean running the rebuild again
            statement.execute("set synchronous_commit to off");
        }
        connection.setAutoCommit(false);
    }

    /** Opens the switch transaction: the live projector's next batch waits until it commits. */
    private void holdLiveProjector(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("set local synchronous_commit to on");
            // bounds the wait for the lock and for readers of the old tables, so a stuck reader fails the
            // switch instead of holding the live projector forever
            statement.execute("set local lock_timeout to '" + settings.timeout().toMillis() + "ms'");
            statement.execute(ReadModelSwitchLock.EXCLUSIVE);
        }
    }

    private static void abandon(Connection connection, String schema) {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            ReadModelSchemas.drop(connection, schema);
        } catch (SQLException e) {
            log.warn("Could not drop the schema {} of the failed rebuild (the next rebuild drops it): SQLState {}",
                    schema, e.getSQLState());
        }
    }

    private String describe(SQLException e) {
        if (LOCK_TIMEOUT_SQLSTATE.equals(e.getSQLState())) {
            return "the switch lock was not granted within " + settings.timeout().toSeconds() + " s (a live projector"
                    + " transaction or a reader of the read models held it); nothing was switched, run it again";
        }
        return "PostgreSQL at " + settings.jdbcUrl() + ": " + e.getMessage();
    }
}
