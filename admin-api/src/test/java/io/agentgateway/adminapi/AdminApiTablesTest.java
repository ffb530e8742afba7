package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.httpedge.web.IngressMigrations;
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
 * The admin API's tables, migrated by the admin API ({@link AdminApiTables}): a fresh database gets both scripts under
 * the module's own history; a deployment of the earlier release, whose one shared history ran these same scripts as its
 * V1 and V4, keeps its tables and rows and starts the module's history as a baseline after them.
 */
class AdminApiTablesTest {
    private final EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
    private final IngressMigrations adminApi = new AdminApiTables().adminApiMigrations();

    @Test
    void aFreshDatabaseGetsTheAdminApisTablesUnderItsOwnHistory() {
        DataSource database = database();

        new IngressTables(database, List.of(adminApi)).ready();

        JdbcClient jdbc = JdbcClient.create(database);
        assertThat(jdbc.sql("select version || ' ' || type from ingress.admin_api_schema_history where version <> '0'"
                + " order by installed_rank").query(String.class).list()).containsExactly("1 SQL", "2 SQL");
        assertThat(tables(jdbc)).contains("oauth_state_uses", "notification_redrives");
    }

    @Test
    void theEarlierReleasesSharedHistoryIsAdoptedNotRunAgain(@TempDir Path shared) throws IOException {
        // the earlier release's layout: these scripts as V1 and V4 of ingress.flyway_schema_history, between two others
        copy("db/ingress/admin-api/V1__oauth_state_uses.sql", shared.resolve("V1__oauth_state_uses.sql"));
        Files.writeString(shared.resolve("V2__console_sessions.sql"), "create table console_sessions (id_hash text primary key);");
        Files.writeString(shared.resolve("V3__mcp_task_results.sql"), "create table mcp_task_results (task_id uuid primary key);");
        copy("db/ingress/admin-api/V2__notification_redrives.sql", shared.resolve("V4__notification_redrives.sql"));
        DataSource database = database();
        Flyway.configure().dataSource(database).schemas("ingress").locations("filesystem:" + shared).load().migrate();
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                insert into ingress.oauth_state_uses (nonce, workspace_id, tool, used_by, expires_at)
                values ('spent-before-the-upgrade', gen_random_uuid(), 'code_host', 'owner-1', now() + interval '1 hour')""")
                .update();

        new IngressTables(database, List.of(adminApi)).ready();

        assertThat(jdbc.sql("select version || ' ' || type from ingress.admin_api_schema_history order by installed_rank")
                .query(String.class).list()).containsExactly("2 BASELINE");
        assertThat(jdbc.sql("select nonce from ingress.oauth_state_uses").query(String.class).list())
                .containsExactly("spent-before-the-upgrade");
        assertThat(jdbc.sql("select count(*) from ingress.flyway_schema_history where success and version is not null").query(Integer.class).single())
                .isEqualTo(4);
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = AdminApiTablesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Files.copy(in, to);
        }
    }

    private DataSource database() {
        return new DriverManagerDataSource(postgres.createDatabase("admin_api_tables"), postgres.username(), postgres.password());
    }

    private static List<String> tables(JdbcClient jdbc) {
        return jdbc.sql("select table_name from information_schema.tables where table_schema = 'ingress'").query(String.class).list();
    }
}
