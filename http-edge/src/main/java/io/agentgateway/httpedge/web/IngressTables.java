package io.agentgateway.httpedge.web;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.stereotype.Component;

/**
 * The tables the ingress writes itself (not read models): schema {@value #SCHEMA}, where each module of the ingress
 * migrates its own ({@link IngressMigrations}: a bean each module contributes, with its scripts and its own history).
 * The projector owns {@code public} and its rebuild swaps only the tables of its own migrations, so nothing here is
 * lost by a rebuild.
 *
 * <p>A deployment from before keeps its shared history ({@value #SHARED_HISTORY}): a module whose tables it created
 * starts its own history as a baseline after them ({@link #baselineOf}), so nothing is created twice; the shared
 * history stays as it is, so that a replica of the earlier release still validates against it during a rolling
 * upgrade. Scripts still held here under that shared history ({@value #SHARED_LOCATION}) are migrated first, while
 * any is left, until their module takes them over.
 *
 * <p>Migrated on first use rather than at start-up: the ingress starts and serves its other endpoints while
 * PostgreSQL is unreachable, as before; a writer calls {@link #ready()} first (blocking: off the event loop). A
 * failed attempt (database unreachable) is tried again by the next caller. Flyway locks against other replicas doing
 * the same.
 */
@Component
public class IngressTables {
    public static final String SCHEMA = "ingress";
    /** The one history every module's scripts shared before each module migrated its own. */
    static final String SHARED_HISTORY = "flyway_schema_history";
    static final String SHARED_LOCATION = "classpath:db/migration/ingress";

    private final DataSource dataSource;
    private final List<IngressMigrations> modules;
    private volatile boolean migrated;

    public IngressTables(DataSource dataSource, List<IngressMigrations> modules) {
        this.dataSource = dataSource;
        this.modules = modules.stream().sorted(Comparator.comparing(IngressMigrations::module)).toList();
        Set<String> names = new HashSet<>();
        for (IngressMigrations module : this.modules) {
            if (!names.add(module.module())) {
                throw new IllegalStateException("two contributions of ingress tables for module " + module.module());
            }
        }
    }

    /** Migrates every module's tables once per process. */
    public void ready() {
        if (migrated) {
            return;
        }
        synchronized (this) {
            if (!migrated) {
                migrateShared();
                for (IngressMigrations module : modules) {
                    migrate(module);
                }
                migrated = true;
            }
        }
    }

    /** What is left under the shared history, if anything: scripts applied before and moved out are no error. */
    private void migrateShared() {
        Flyway shared = configure().locations(SHARED_LOCATION).table(SHARED_HISTORY)
                .failOnMissingLocations(false)
                .ignoreMigrationPatterns("*:missing")
                .load();
        if (shared.info().pending().length > 0) {
            shared.migrate();
        }
    }

    private void migrate(IngressMigrations module) {
        configure().locations(module.location()).table(module.historyTable())
                .failOnMissingLocations(true)
                // a module's first migration into a schema that holds tables already (other modules', or its own
                // from the shared history): its history starts as a baseline after what the shared history applied
                .baselineOnMigrate(true)
                .baselineVersion(Integer.toString(baselineOf(module)))
                .baselineDescription("adopted from " + SCHEMA + "." + SHARED_HISTORY)
                .load()
                .migrate();
    }

    /**
     * How many of the module's own versions the shared history applied already: its adopted versions in order, as far
     * as each was applied successfully (0: none, or no shared history at all).
     */
    int baselineOf(IngressMigrations module) {
        if (module.adoptedSharedVersions().isEmpty()) {
            return 0;
        }
        Set<String> applied = sharedVersionsApplied();
        int baseline = 0;
        while (baseline < module.adoptedSharedVersions().size()
                && applied.contains(module.adoptedSharedVersions().get(baseline))) {
            baseline++;
        }
        return baseline;
    }

    private Set<String> sharedVersionsApplied() {
        try (Connection connection = dataSource.getConnection()) {
            Set<String> applied = new HashSet<>();
            try (ResultSet table = connection.getMetaData().getTables(null, SCHEMA, SHARED_HISTORY, null)) {
                if (!table.next()) {
                    return applied;
                }
            }
            try (var statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select version from " + SCHEMA + "." + SHARED_HISTORY
                         + " where success and version is not null")) {
                while (rows.next()) {
                    applied.add(rows.getString(1));
                }
            }
            return applied;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + SCHEMA + "." + SHARED_HISTORY + ": " + e.getMessage(), e);
        }
    }

    private FluentConfiguration configure() {
        return Flyway.configure().dataSource(dataSource).schemas(SCHEMA);
    }
}
