package io.agentgateway.mcpgate;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** A fresh database on the shared PostgreSQL with the projector's read-model schema, as the projector migrates it. */
public final class ReadModelDatabase {
    /** The projector owns the schema; the tests read it from its module rather than keep a copy. */
    private static final Path MIGRATIONS =
            Path.of("../projector/src/main/resources/db/migration/projector").toAbsolutePath().normalize();

    private ReadModelDatabase() {}

    public static DataSource create() {
        if (!Files.isDirectory(MIGRATIONS)) {
            throw new IllegalStateException("projector migrations not found at " + MIGRATIONS);
        }
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        String url = postgres.createDatabase("mcp_gate");
        Flyway.configure().dataSource(url, postgres.username(), postgres.password())
                .locations("filesystem:" + MIGRATIONS).load().migrate();
        return new DriverManagerDataSource(url, postgres.username(), postgres.password());
    }
}
