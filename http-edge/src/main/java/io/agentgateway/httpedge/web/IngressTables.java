package io.agentgateway.httpedge.web;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.stereotype.Component;

/**
 * The tables the ingress writes itself (not read models): schema {@value #SCHEMA}, migrated by the ingress from
 * {@code classpath:db/migration/ingress} with its own history ({@code ingress.flyway_schema_history}). The
 * projector owns {@code public} and its rebuild swaps only the tables of its own migrations, so nothing here is
 * lost by a rebuild.
 *
 * <p>Migrated on first use rather than at start-up: the ingress starts and serves its other endpoints while
 * PostgreSQL is unreachable, as before; a writer calls {@link #ready()} first (blocking: off the event loop). A
 * failed attempt (database unreachable) is tried again by the next caller.
 */
@Component
public class IngressTables {
    public static final String SCHEMA = "ingress";
    static final String MIGRATIONS = "classpath:db/migration/ingress";

    private final DataSource dataSource;
    private volatile boolean migrated;

    public IngressTables(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Migrates the ingress's schema once per process (Flyway locks against other replicas doing the same). */
    public void ready() {
        if (migrated) {
            return;
        }
        synchronized (this) {
            if (!migrated) {
                Flyway.configure()
                        .dataSource(dataSource)
                        .locations(MIGRATIONS)
                        .schemas(SCHEMA)
                        .failOnMissingLocations(true)
                        .load()
                        .migrate();
                migrated = true;
            }
        }
    }
}
