package io.agentgateway.ingresstestsupport;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;

/** A fresh database on the shared PostgreSQL with the projector's read-model schema applied, as the projector would. */
public final class TestDatabase {
    /** The projector owns the schema; the tests read it from its module rather than keep a copy. */
    private static final Path MIGRATIONS = Path.of("../projector/src/main/resources/db/migration/projector").toAbsolutePath().normalize();

    public final String url;
    public final String username;
    public final String password;

    private TestDatabase(String url, String username, String password) {
        this.url = url;
        this.username = username;
        this.password = password;
    }

    public static TestDatabase create() {
        return create(SharedTestInfra.postgres());
    }

    /** On a server of the test's own (one it may stop). */
    public static TestDatabase create(EmbeddedPostgresServer postgres) {
        return create(postgres, "latest");
    }

    /** With the projector's migrations up to {@code version} only: a schema an older projector left. */
    public static TestDatabase createAt(String version) {
        return create(SharedTestInfra.postgres(), version);
    }

    private static TestDatabase create(EmbeddedPostgresServer postgres, String version) {
        if (!Files.isDirectory(MIGRATIONS)) {
            throw new IllegalStateException("projector migrations not found at " + MIGRATIONS);
        }
        String url = postgres.createDatabase("ingress");
        Flyway.configure()
                .dataSource(url, postgres.username(), postgres.password())
                .locations("filesystem:" + MIGRATIONS)
                .target(version)
                .load()
                .migrate();
        return new TestDatabase(url, postgres.username(), postgres.password());
    }
}
