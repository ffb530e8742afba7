package io.agentgateway.webhooks;

import io.agentgateway.actiongate.connection.CandidateIndexProperties;
import io.agentgateway.schemas.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Which workspaces a delivery's payload names: the read model's cross-workspace index
 * ({@link WebhookCandidateQueries}), each answer kept for at most {@code gateway.webhooks.candidate-index-ttl}
 * so that a busy repository does not cost a query per delivery.
 *
 * <p>Why an answer kept that long is never too old: the index is only a list of candidates. A candidate's
 * secret, config and very existence are checked against the decision stream's current connection (the
 * {@code ReceiveWebhook} names its version; a stale answer is verified again), so an index that still names
 * a deleted or changed connection decides nothing. What an old answer could miss is a workspace a change
 * <em>added</em>; and every such change (a code_host or issue_tracker connection written through the admin
 * API or the OAuth callback) answers only once the read model shows it <em>and</em> this TTL has passed
 * since ({@link io.agentgateway.actiongate.connection.WebhookRouting#awaitVisible}): every answer kept by any replica was then loaded after the
 * change, or has expired. Lookups that name no connection are never kept (the names come from
 * unauthenticated requests), and at most {@link #MAX_ENTRIES} are.
 */
@Component
class WebhookCandidateIndex {
    static final int MAX_ENTRIES = 10_000;

    private final WebhookCandidateQueries queries;
    private final Duration ttl;
    private final Clock clock;
    private final Map<Lookup, Entry> entries = new ConcurrentHashMap<>();

    @Autowired
    WebhookCandidateIndex(WebhookCandidateQueries queries, CandidateIndexProperties properties) {
        this(queries, properties.candidateIndexTtl(), Clock.systemUTC());
    }

    WebhookCandidateIndex(WebhookCandidateQueries queries, Duration ttl, Clock clock) {
        this.queries = queries;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Code host: by {@code repository.full_name} and {@code organization.login}. Blocking. */
    List<WebhookCandidate> codeHost(String repositoryFullName, String organizationLogin) {
        if (repositoryFullName == null && organizationLogin == null) {
            return List.of();
        }
        return kept(new Lookup(Tool.CODE_HOST, repositoryFullName, organizationLogin),
                () -> queries.codeHost(repositoryFullName, organizationLogin));
    }

    /** Issue tracker: by {@code organizationId} and {@code data.teamId}. Blocking. */
    List<WebhookCandidate> issueTracker(String organizationId, String teamId) {
        if (organizationId == null && teamId == null) {
            return List.of();
        }
        return kept(new Lookup(Tool.ISSUE_TRACKER, organizationId, teamId),
                () -> queries.issueTracker(organizationId, teamId));
    }

    private List<WebhookCandidate> kept(Lookup lookup, Supplier<List<WebhookCandidate>> query) {
        // the time of the read is taken before it: the answer is at least as new as that instant
        Instant loadedAt = clock.instant();
        Entry entry = entries.get(lookup);
        if (entry != null && loadedAt.isBefore(entry.expiresAt())) {
            return entry.candidates();
        }
        List<WebhookCandidate> candidates = List.copyOf(query.get());
        if (ttl.isZero() || candidates.isEmpty()) {
            entries.remove(lookup);
            return candidates;
        }
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(lookup, new Entry(candidates, loadedAt.plus(ttl)));
        return candidates;
    }

    private record Lookup(Tool tool, String first, String second) {}

    private record Entry(List<WebhookCandidate> candidates, Instant expiresAt) {}
}
