package io.agentgateway.ingress.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingress.connection.ToolConnectionChangedHere;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the webhook candidates are served from memory, and what makes the read model be asked again. */
class WebhookCandidatesTest {
    private static final UUID WORKSPACE = UUID.fromString("5b7e2c90-1d4a-4f3e-9c8b-6a0d2e4f1c73");
    private static final String REPO = "acme/api";

    /** The read model: the candidates it answers, how far the projector got, and every query counted. */
    private List<WebhookCandidate> rows = List.of(candidate("v1"));
    private final Map<UUID, Long> projectedVersions = new HashMap<>(Map.of(WORKSPACE, 5L));
    private final AtomicInteger candidateQueries = new AtomicInteger();
    private final AtomicInteger versionQueries = new AtomicInteger();
    private final WebhookCandidateQueries readModel = new WebhookCandidateQueries(null) {
        @Override
        List<WebhookCandidate> codeHost(String repositoryFullName, String organizationLogin) {
            candidateQueries.incrementAndGet();
            return REPO.equals(repositoryFullName) ? rows : List.of();
        }

        @Override
        List<WebhookCandidate> issueTracker(String organizationId, String teamId) {
            candidateQueries.incrementAndGet();
            return rows;
        }

        @Override
        Map<UUID, Long> projectedVersions(Collection<UUID> workspaceIds) {
            versionQueries.incrementAndGet();
            return Map.copyOf(projectedVersions);
        }
    };
    private final WebhookCandidates candidates = new WebhookCandidates(readModel, Duration.ofMinutes(5),
            Clock.fixed(Instant.parse("2026-11-24T04:00:00Z"), ZoneOffset.UTC));

    @Test
    void nothing_is_kept_until_the_change_listener_is_positioned() {
        lookUp();
        lookUp();
        assertThat(candidateQueries).hasValue(2);

        candidates.listening(true);
        lookUp();
        lookUp();
        assertThat(candidateQueries).hasValue(3);
    }

    @Test
    void a_change_seen_on_the_log_is_kept_only_once_the_read_model_shows_it() {
        candidates.listening(true);
        assertThat(lookUp()).isEqualTo("v1");

        // the secret was rotated at version 6; the projector has not written it yet
        candidates.changed(WORKSPACE, Tool.CODE_HOST, 6);
        assertThat(lookUp()).isEqualTo("v1");
        assertThat(lookUp()).isEqualTo("v1");
        assertThat(candidateQueries).as("a lagging answer is used, not kept").hasValue(3);

        rows = List.of(candidate("v2"));
        projectedVersions.put(WORKSPACE, 6L);
        assertThat(lookUp()).isEqualTo("v2");
        assertThat(lookUp()).isEqualTo("v2");
        assertThat(candidateQueries).hasValue(4);
        assertThat(versionQueries).as("asked until projected, then no more").hasValue(3);
    }

    @Test
    void changes_to_tools_without_webhooks_keep_the_entries() {
        candidates.listening(true);
        lookUp();

        candidates.changed(WORKSPACE, Tool.MCP, 6);
        candidates.changedHere(new ToolConnectionChangedHere(WORKSPACE, Tool.CHAT));
        lookUp();

        assertThat(candidateQueries).hasValue(1);
    }

    @Test
    void a_change_made_through_this_instance_or_an_unreadable_event_drops_the_entries() {
        candidates.listening(true);
        lookUp();

        candidates.changedHere(new ToolConnectionChangedHere(WORKSPACE, Tool.CODE_HOST));
        lookUp();
        candidates.forgetAll();
        lookUp();
        candidates.issueTracker("org-1", null);
        candidates.changed(WORKSPACE, Tool.ISSUE_TRACKER, 4);
        candidates.issueTracker("org-1", null);

        assertThat(candidateQueries).hasValue(5);
    }

    @Test
    void a_payload_naming_no_connection_is_never_kept() {
        candidates.listening(true);

        assertThat(candidates.codeHost("someone/else", null)).isEmpty();
        assertThat(candidates.codeHost("someone/else", null)).isEmpty();
        assertThat(candidates.codeHost(null, null)).isEmpty();

        assertThat(candidateQueries).hasValue(2);
    }

    private String lookUp() {
        return candidates.codeHost(REPO, null).get(0).webhookSecret().value();
    }

    private static WebhookCandidate candidate(String sealed) {
        return new WebhookCandidate(WORKSPACE, SealedSecret.of(sealed));
    }
}
