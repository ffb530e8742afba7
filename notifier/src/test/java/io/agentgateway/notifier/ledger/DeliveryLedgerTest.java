package io.agentgateway.notifier.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.notifier.channel.Channel;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

class DeliveryLedgerTest {
    private static PGSimpleDataSource dataSource;
    private static JdbcClient jdbc;
    private static DeliveryLedger ledger;

    @BeforeAll
    static void migrate() {
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        dataSource = new PGSimpleDataSource();
        dataSource.setURL(postgres.createDatabase("notifier_ledger"));
        dataSource.setUser(postgres.username());
        dataSource.setPassword(postgres.password());
        LedgerSchema.flyway(dataSource).migrate();
        jdbc = JdbcClient.create(dataSource);
        ledger = new DeliveryLedger(jdbc);
    }

    @Test
    void migrationKeepsItsHistoryInItsOwnSchemaAndCanRunAgain() {
        assertThat(tableExists("notifier", "flyway_schema_history")).isTrue();
        assertThat(tableExists("notifier", "notification_deliveries")).isTrue();
        // the projector's Flyway owns public.flyway_schema_history; we must not have created it
        assertThat(tableExists("public", "flyway_schema_history")).isFalse();
        assertThat(LedgerSchema.flyway(dataSource).migrate().migrationsExecuted).isZero();
    }

    @Test
    void firstClaimWinsAndSentIsNeverClaimedAgain() {
        String id = newId();
        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(ledger.status(id, Channel.EMAIL)).contains(DeliveryStatus.SENDING);
        ledger.markSent(id, Channel.EMAIL);

        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.ALREADY_SENT);
        assertThat(ledger.status(id, Channel.EMAIL)).contains(DeliveryStatus.SENT);
        assertThat(attempts(id, Channel.EMAIL)).isEqualTo(1);
    }

    @Test
    void channelsOfOneNotificationAreIndependent() {
        String id = newId();
        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.CLAIMED);
        ledger.markSent(id, Channel.EMAIL);
        assertThat(ledger.claim(id, Channel.CHAT)).isEqualTo(ClaimOutcome.CLAIMED);
        ledger.markFailed(id, Channel.CHAT, "chat webhook answered HTTP 500");

        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.ALREADY_SENT);
        assertThat(ledger.claim(id, Channel.CHAT)).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void aFailedAttemptMayBeClaimedAgainAndCountsAttempts() {
        String id = newId();
        ledger.claim(id, Channel.CHAT);
        ledger.markFailed(id, Channel.CHAT, "chat webhook answered HTTP 503");
        assertThat(lastError(id, Channel.CHAT)).isEqualTo("chat webhook answered HTTP 503");

        assertThat(ledger.claim(id, Channel.CHAT)).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(attempts(id, Channel.CHAT)).isEqualTo(2);
        ledger.markSent(id, Channel.CHAT);
        assertThat(ledger.status(id, Channel.CHAT)).contains(DeliveryStatus.SENT);
        assertThat(lastError(id, Channel.CHAT)).isNull();
    }

    @Test
    void aClaimFoundStillSendingIsInDoubtAndNeverSentAgain() {
        String id = newId();
        ledger.claim(id, Channel.EMAIL);
        // the process "dies" here: no markSent, no markFailed

        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.FOUND_IN_DOUBT);
        assertThat(ledger.status(id, Channel.EMAIL)).contains(DeliveryStatus.UNKNOWN);
        assertThat(ledger.claim(id, Channel.EMAIL)).isEqualTo(ClaimOutcome.ALREADY_IN_DOUBT);
        assertThat(attempts(id, Channel.EMAIL)).isEqualTo(1);
    }

    @Test
    void anAttemptThatMayHaveDeliveredIsNeverClaimedAgain() {
        String id = newId();
        ledger.claim(id, Channel.CHAT);
        ledger.markUnknown(id, Channel.CHAT, "chat webhook: no answer within PT10S");

        assertThat(ledger.claim(id, Channel.CHAT)).isEqualTo(ClaimOutcome.ALREADY_IN_DOUBT);
        assertThat(ledger.status(id, Channel.CHAT)).contains(DeliveryStatus.UNKNOWN);
    }

    @Test
    void veryLongErrorsAreTruncated() {
        String id = newId();
        ledger.claim(id, Channel.EMAIL);
        ledger.markFailed(id, Channel.EMAIL, "x".repeat(10_000));
        assertThat(lastError(id, Channel.EMAIL)).hasSize(2000);
    }

    private static boolean tableExists(String schema, String table) {
        return jdbc.sql("select count(*) from information_schema.tables where table_schema = ? and table_name = ?")
                .params(schema, table).query(Integer.class).single() == 1;
    }

    private static int attempts(String id, Channel channel) {
        return jdbc.sql("select attempts from notifier.notification_deliveries where notification_id = ? and channel = ?")
                .params(id, channel.wireName()).query(Integer.class).single();
    }

    private static String lastError(String id, Channel channel) {
        return jdbc.sql("select last_error from notifier.notification_deliveries where notification_id = ? and channel = ?")
                .params(id, channel.wireName()).query(String.class).optional().orElse(null);
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }
}
