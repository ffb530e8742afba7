package io.agentgateway.notifier.ledger;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The ledger's own Flyway: migrations in {@code classpath:db/migration/notifier}, schema
 * {@code notifier}, history table {@code notifier.flyway_schema_history}. Kept apart from every
 * other module's migrations (the projector's live in {@code public}), so two Flyways on one database
 * never see each other's history.
 */
public final class LedgerSchema {
    public static final String SCHEMA = "notifier";
    public static final String LOCATION = "classpath:db/migration/notifier";

    private LedgerSchema() {}

    public static Flyway flyway(DataSource dataSource) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .schemas(SCHEMA)
                .defaultSchema(SCHEMA)
                .createSchemas(true)
                .table("flyway_schema_history")
                .load();
    }
}
