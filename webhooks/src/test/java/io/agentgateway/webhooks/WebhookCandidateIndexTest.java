package io.agentgateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingresstestsupport.ReadModelRows;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.TestDatabase;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** How long the read model's answer of which workspaces a payload names is kept: a real read-model database. */
class WebhookCandidateIndexTest {
    private static final Duration TTL = Duration.ofMillis(500);
    private static JdbcClient jdbc;
    private static ReadModelRows rows;
    private final SecretBox box = SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY);
    private final MovableClock clock = new MovableClock();
    private String repo;
    private WebhookCandidateIndex index;

    @BeforeAll
    static void database() {
        TestDatabase database = TestDatabase.create();
        jdbc = JdbcClient.create(new DriverManagerDataSource(database.url, database.username, database.password));
        rows = new ReadModelRows(jdbc);
    }

    @BeforeEach
    void newIndex() {
        repo = "acme-" + UUID.randomUUID().toString().substring(0, 8) + "/api";
        index = new WebhookCandidateIndex(new WebhookCandidateQueries(jdbc), TTL, clock);
    }

    private UUID watching(String version) {
        UUID workspace = rows.workspace("webhooks");
        rows.toolConnection(workspace, "code_host", new String[] {repo}, null, null, box.seal("secret-" + version), null, null,
                null, null, Long.parseLong(version));
        return workspace;
    }

    private List<UUID> lookUp() {
        return index.codeHost(repo.toUpperCase(), null).stream().map(WebhookCandidate::workspaceId).toList();
    }

    @Test
    void anAnswerIsKeptForTheTtlAndReadAgainAfterIt() {
        UUID first = watching("7");
        assertThat(lookUp()).containsExactly(first);
        WebhookCandidate kept = index.codeHost(repo, null).get(0);
        assertThat(ToolConnection.versionOf(kept.connection())).isEqualTo(7);
        assertThat(kept.connection().config().repos()).containsExactly(repo);

        // a workspace added now is not in the kept answer until it expired: the admin API's answer to the
        // change waits that long (WebhookRouting), so no delivery sent after it misses the workspace
        UUID second = watching("9");
        clock.advance(TTL.minusMillis(1));
        assertThat(lookUp()).containsExactly(first);
        clock.advance(Duration.ofMillis(1));
        assertThat(lookUp()).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void anAnswerNamingNoWorkspaceIsNeverKept() {
        assertThat(lookUp()).isEmpty();
        UUID added = watching("3");
        assertThat(lookUp()).containsExactly(added);
    }

    @Test
    void withoutATtlNothingIsKept() {
        index = new WebhookCandidateIndex(new WebhookCandidateQueries(jdbc), Duration.ZERO, clock);
        UUID first = watching("3");
        assertThat(lookUp()).containsExactly(first);
        UUID second = watching("4");
        assertThat(lookUp()).containsExactlyInAnyOrder(first, second);
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-11-24T04:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
