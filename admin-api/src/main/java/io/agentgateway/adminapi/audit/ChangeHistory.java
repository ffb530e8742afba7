package io.agentgateway.adminapi.audit;

import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.SqlRows;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Who changed what in a workspace's administration (the projector's {@code admin_changes}: one row per policy,
 * defaults, API key, member, notification or tool connection event, with its actor), newest first. Summaries never
 * hold a secret.
 */
@Service
public class ChangeHistory {
    static final Set<String> AREAS = Set.of("workspace", "policy", "defaults", "api_key", "member", "notifications", "tool", "audit");

    /** @param actorUserId who made it (null: not a person) */
    public record Change(Instant occurredAt, String area, String subject, String summary, String actorUserId,
                         String correlationId) {}

    private final JdbcClient jdbc;

    ChangeHistory(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The newest {@code limit} changes of these areas (all when none given). */
    public Mono<List<Change>> recent(UUID workspaceId, Set<String> areas, int limit) {
        Set<String> wanted = areas == null || areas.isEmpty() ? AREAS : areas;
        return Blocking.call(() -> jdbc.sql("""
                        select occurred_at, area, subject, summary, actor_user_id, correlation_id from admin_changes
                         where workspace_id = :workspace and area in (:areas)
                         order by occurred_at desc, event_id limit :limit""")
                .param("workspace", workspaceId)
                .param("areas", List.copyOf(wanted))
                .param("limit", limit)
                .query((rs, row) -> new Change(SqlRows.instant(rs, "occurred_at"), rs.getString("area"), rs.getString("subject"),
                        rs.getString("summary"), rs.getString("actor_user_id"), rs.getString("correlation_id")))
                .list());
    }
}
