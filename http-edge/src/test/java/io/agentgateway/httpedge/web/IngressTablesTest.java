package io.agentgateway.httpedge.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Each module migrates its own tables in schema {@code ingress}, with its own history; a deployment whose one shared
 * history ({@code ingress.flyway_schema_history}) created them already keeps them: the module's history starts as a
 * baseline after what was applied, nothing is created twice, rows stay, and only what is new is applied. The modules
 * here are fixtures ({@code src/test/resources/db/ingress/fixture-*}) whose adopted scripts would fail if run again;
 * the old state is built as the earlier release built it (one history, {@code db/legacy/ingress} beside the shared
 * location's own scripts).
 */
class IngressTablesTest {
    private static final IngressMigrations AUTH = IngressMigrations.of("fixture-auth").adopting("1", "4");
    private static final IngressMigrations SESSIONS = IngressMigrations.of("fixture-sessions").adopting("2");
    private static final IngressMigrations FRESH = IngressMigrations.of("fixture-fresh");
    private static final List<IngressMigrations> MODULES = List.of(AUTH, SESSIONS, FRESH);

    private final EmbeddedPostgresServer postgres = SharedTestInfra.postgres();

    @Test
    void aFreshDatabaseGetsEveryModulesTablesEachWithItsOwnHistory() {
        DataSource database = database();

        new IngressTables(database, MODULES).ready();

        JdbcClient jdbc = JdbcClient.create(database);
        assertThat(tables(jdbc)).contains("oauth_state_uses", "notification_redrives", "auth_audit", "console_sessions",
                "fresh_things");
        // every script of every module ran (after an empty baseline where the schema held another's tables already)
        assertThat(withoutEmptyBaseline(history(jdbc, AUTH))).containsExactly("1 SQL", "2 SQL", "3 SQL");
        assertThat(withoutEmptyBaseline(history(jdbc, SESSIONS))).containsExactly("1 SQL");
        assertThat(withoutEmptyBaseline(history(jdbc, FRESH))).containsExactly("1 SQL");
    }

    private static List<String> withoutEmptyBaseline(List<String> history) {
        return history.stream().filter(row -> !row.equals("0 BASELINE")).toList();
    }

    @Test
    void anExistingDeploymentKeepsItsTablesAndRowsAndGetsOnlyWhatIsNew() {
        DataSource database = database();
        legacy(database, null);
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("insert into ingress.oauth_state_uses (nonce) values ('spent before the upgrade')").update();
        List<String> sharedBefore = sharedHistory(jdbc);

        new IngressTables(database, MODULES).ready();

        assertThat(history(jdbc, AUTH)).containsExactly("2 BASELINE", "3 SQL");
        assertThat(history(jdbc, SESSIONS)).containsExactly("1 BASELINE");
        // a module the shared history never had, into a schema with tables: all its scripts, after an empty baseline
        assertThat(history(jdbc, FRESH)).containsExactly("0 BASELINE", "1 SQL");
        assertThat(jdbc.sql("select nonce from ingress.oauth_state_uses").query(String.class).list())
                .containsExactly("spent before the upgrade");
        assertThat(tables(jdbc)).contains("auth_audit", "fresh_things");
        // the shared history stays as it was: a replica of the earlier release still validates against it
        assertThat(sharedHistory(jdbc)).isEqualTo(sharedBefore);
    }

    @Test
    void aDeploymentThatStoppedHalfwayBaselinesWhatItHasAndAppliesTheRest() {
        DataSource database = database();
        // the shared history up to V2: the auth module's V1 and the sessions' V1 applied, not yet the auth module's V2 (V4)
        legacy(database, "2");

        new IngressTables(database, MODULES).ready();

        JdbcClient jdbc = JdbcClient.create(database);
        assertThat(history(jdbc, AUTH)).containsExactly("1 BASELINE", "2 SQL", "3 SQL");
        assertThat(history(jdbc, SESSIONS)).containsExactly("1 BASELINE");
        assertThat(tables(jdbc)).contains("notification_redrives");
    }

    @Test
    void anotherReplicaOrASecondStartChangesNothing() {
        DataSource database = database();
        legacy(database, null);
        new IngressTables(database, MODULES).ready();
        JdbcClient jdbc = JdbcClient.create(database);
        List<String> auth = history(jdbc, AUTH);
        List<String> fresh = history(jdbc, FRESH);

        IngressTables secondReplica = new IngressTables(database, MODULES);
        secondReplica.ready();
        secondReplica.ready();

        assertThat(history(jdbc, AUTH)).isEqualTo(auth);
        assertThat(history(jdbc, FRESH)).isEqualTo(fresh);
    }

    @Test
    void aModuleBaselinesOnlyAsFarAsItsAdoptedVersionsWereAppliedInOrder() {
        DataSource database = database();
        legacy(database, "1");
        IngressTables tables = new IngressTables(database, MODULES);

        assertThat(tables.baselineOf(AUTH)).isEqualTo(1);
        assertThat(tables.baselineOf(SESSIONS)).isZero();
        assertThat(tables.baselineOf(FRESH)).isZero();
        assertThat(new IngressTables(database(), MODULES).baselineOf(AUTH)).as("no shared history at all").isZero();
    }

    /** The state the earlier release left: one history, {@code ingress.flyway_schema_history}, up to {@code target}. */
    private static void legacy(DataSource database, String target) {
        var flyway = Flyway.configure().dataSource(database).schemas(IngressTables.SCHEMA)
                .locations("classpath:db/legacy/ingress", IngressTables.SHARED_LOCATION)
                .table(IngressTables.SHARED_HISTORY);
        if (target != null) {
            flyway.target(target);
        }
        flyway.load().migrate();
    }

    private DataSource database() {
        return new DriverManagerDataSource(postgres.createDatabase("ingress_tables"), postgres.username(), postgres.password());
    }

    private static List<String> tables(JdbcClient jdbc) {
        return jdbc.sql("select table_name from information_schema.tables where table_schema = 'ingress'")
                .query(String.class).list();
    }

    /** {@code <version> <type>} of each row of the module's history, in order. */
    private static List<String> history(JdbcClient jdbc, IngressMigrations module) {
        return jdbc.sql("select version || ' ' || type from ingress." + module.historyTable()
                        + " where version is not null order by installed_rank")
                .query(String.class).list();
    }

    private static List<String> sharedHistory(JdbcClient jdbc) {
        return jdbc.sql("select installed_rank || ' ' || version || ' ' || checksum from ingress." + IngressTables.SHARED_HISTORY
                        + " order by installed_rank")
                .query(String.class).list();
    }
}
