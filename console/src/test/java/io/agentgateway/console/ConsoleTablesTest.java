package io.agentgateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.httpedge.web.IngressTables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The console's tables, migrated by the console ({@code ConsoleConfiguration#consoleMigrations}): a deployment of the
 * earlier release, whose one shared history ran this same script as its V2, keeps its sessions (nobody is signed out)
 * and starts the console's history as a baseline after it.
 */
class ConsoleTablesTest {
    private final EmbeddedPostgresServer postgres = SharedTestInfra.postgres();

    @Test
    void theEarlierReleasesSessionsAreAdoptedNotCreatedAgain(@TempDir Path shared) throws IOException {
        Files.writeString(shared.resolve("V1__oauth_state_uses.sql"), "create table oauth_state_uses (nonce text primary key);");
        try (InputStream script = getClass().getClassLoader().getResourceAsStream("db/ingress/console/V1__console_sessions.sql")) {
            assertThat(script).isNotNull();
            Files.copy(script, shared.resolve("V2__console_sessions.sql"));
        }
        DataSource database = new DriverManagerDataSource(postgres.createDatabase("console_tables"), postgres.username(),
                postgres.password());
        Flyway.configure().dataSource(database).schemas("ingress").locations("filesystem:" + shared).load().migrate();
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                insert into ingress.console_sessions (id_hash, user_id, signed_in_via, csrf_token, created_at, authenticated_at,
                    last_seen_at) values ('h', 'owner-1', 'link', 'c', now(), now(), now())""").update();

        new IngressTables(database, List.of(new ConsoleConfiguration().consoleMigrations())).ready();

        assertThat(jdbc.sql("select version || ' ' || type from ingress.console_schema_history order by installed_rank")
                .query(String.class).list()).containsExactly("1 BASELINE");
        assertThat(jdbc.sql("select user_id from ingress.console_sessions").query(String.class).list()).containsExactly("owner-1");
    }
}
