package io.agentgateway.ingress.webhook;

import io.agentgateway.ingress.connection.ToolConnectionChangeObserver;
import io.agentgateway.ingress.connection.ToolConnectionChangedHere;
import io.agentgateway.ingress.connection.WebhookSetup;
import io.agentgateway.schemas.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The connections a delivery's payload names (see {@link WebhookCandidateQueries}), kept in memory for
 * {@code gateway.webhooks.candidate-cache-ttl} so that a delivery from a busy repository costs no
 * database round trip. The secrets stay sealed in memory; the verifier opens them per delivery.
 *
 * <p>Nothing kept may outlive a change: every code-host or issue-tracker connection change on the
 * events topic ({@code ToolConnectionChangeListener}), or made through this instance, drops every
 * entry, and until the listener is positioned on the topic nothing is kept at all. The read model
 * lags the log, so a change seen there is remembered until {@code workspaces.workspace_version} shows
 * the projector has written it; a lookup made before that is answered but not kept.
 *
 * <p>Lookups whose payload names no connection are never kept, and at most {@link #MAX_ENTRIES}
 * lookups are: the names come from unauthenticated requests and must not grow memory.
 */
@Component
class WebhookCandidates implements ToolConnectionChangeObserver {
    static final int MAX_ENTRIES = 10_000;

    private final WebhookCandidateQueries queries;
    private final Duration ttl;
    private final Clock clock;
    private final Map<Lookup, Entry> entries = new ConcurrentHashMap<>();
    /** Changes seen on the log that the read model may not show yet: workspace to workspace version. */
    private final Map<UUID, Long> unprojected = new ConcurrentHashMap<>();
    /** Counts every event that drops the entries, so a lookup that raced one is not kept. */
    private final AtomicLong drops = new AtomicLong();
    private volatile boolean listening;

    @Autowired
    WebhookCandidates(WebhookCandidateQueries queries, WebhookProperties properties) {
        this(queries, properties.candidateCacheTtl(), Clock.systemUTC());
    }

    WebhookCandidates(WebhookCandidateQueries queries, Duration ttl, Clock clock) {
        this.queries = queries;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Code host: {@code repository.full_name} in {@code config.repos}, or {@code organization.login} = {@code config.org}. Blocking. */
    List<WebhookCandidate> codeHost(String repositoryFullName, String organizationLogin) {
        if (repositoryFullName == null && organizationLogin == null) {
            return List.of();
        }
        return cached(new Lookup(Tool.CODE_HOST, repositoryFullName, organizationLogin),
                () -> queries.codeHost(repositoryFullName, organizationLogin));
    }

    /** Issue tracker: by {@code organizationId}, narrowed by the team (see {@link WebhookCandidateQueries#issueTracker}). Blocking. */
    List<WebhookCandidate> issueTracker(String organizationId, String teamId) {
        if (organizationId == null && teamId == null) {
            return List.of();
        }
        return cached(new Lookup(Tool.ISSUE_TRACKER, organizationId, teamId), () -> queries.issueTracker(organizationId, teamId));
    }

    private List<WebhookCandidate> cached(Lookup lookup, Supplier<List<WebhookCandidate>> query) {
        Instant now = clock.instant();
        Entry entry = entries.get(lookup);
        if (listening && entry != null && now.isBefore(entry.expiresAt())) {
            return entry.candidates();
        }
        long dropsBefore = drops.get();
        // checked before the query: a change the projector had committed by then is in its answer
        boolean keep = listening && !ttl.isZero() && readModelShowsEveryChange();
        List<WebhookCandidate> candidates = List.copyOf(query.get());
        if (keep && !candidates.isEmpty() && entries.size() < MAX_ENTRIES && drops.get() == dropsBefore) {
            entries.put(lookup, new Entry(candidates, now.plus(ttl)));
            if (drops.get() != dropsBefore) {
                // a change dropped the entries between the check and the put: this one may predate it
                entries.remove(lookup);
            }
        }
        return candidates;
    }

    private boolean readModelShowsEveryChange() {
        if (unprojected.isEmpty()) {
            return true;
        }
        Map<UUID, Long> waiting = Map.copyOf(unprojected);
        Map<UUID, Long> projected = queries.projectedVersions(waiting.keySet());
        waiting.forEach((workspaceId, version) -> {
            // a workspace the read model does not hold has no connections to show
            if (projected.getOrDefault(workspaceId, Long.MAX_VALUE) >= version) {
                unprojected.remove(workspaceId, version);
            }
        });
        return unprojected.isEmpty();
    }

    @Override
    public void changed(UUID workspaceId, Tool tool, long workspaceVersion) {
        if (WebhookSetup.sendsWebhooks(tool)) {
            unprojected.merge(workspaceId, workspaceVersion, Math::max);
            dropAll();
        }
    }

    /** This instance changed a connection: drop now; the log's copy of the change says when it is projected. */
    @EventListener
    void changedHere(ToolConnectionChangedHere change) {
        if (WebhookSetup.sendsWebhooks(change.tool())) {
            dropAll();
        }
    }

    @Override
    public void listening(boolean value) {
        listening = value;
        dropAll();
    }

    @Override
    public void forgetAll() {
        dropAll();
    }

    private void dropAll() {
        drops.incrementAndGet();
        entries.clear();
    }

    private record Lookup(Tool tool, String first, String second) {}

    private record Entry(List<WebhookCandidate> candidates, Instant expiresAt) {}
}
