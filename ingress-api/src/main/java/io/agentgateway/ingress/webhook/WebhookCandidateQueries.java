package io.agentgateway.ingress.webhook;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.Collection;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The connections, across every workspace, that a delivery's payload names (spec 6 rules 1 and 2),
 * read from the projector's {@code tool_connections} (served through {@link WebhookCandidates}' cache). Only connections with a webhook secret can
 * verify anything, so only those are candidates. Names are compared case-insensitively: the code
 * host treats {@code Acme/API} and {@code acme/api} as the same repository. Blocking: call off the
 * event loop.
 */
@Repository
class WebhookCandidateQueries {
    private final JdbcClient jdbc;

    WebhookCandidateQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Code host: {@code repository.full_name} in {@code config.repos}, or {@code organization.login} = {@code config.org}. */
    List<WebhookCandidate> codeHost(String repositoryFullName, String organizationLogin) {
        if (repositoryFullName == null && organizationLogin == null) {
            return List.of();
        }
        return jdbc.sql("""
                        select workspace_id, sealed_webhook_secret from tool_connections
                         where tool = :tool and sealed_webhook_secret is not null
                           and (exists (select 1 from unnest(repos) r where lower(r) = lower(:repo))
                                or lower(org) = lower(:org))
                         order by workspace_id
                        """)
                .param("tool", Tool.CODE_HOST.wire())
                .param("repo", repositoryFullName == null ? "" : repositoryFullName)
                .param("org", organizationLogin == null ? "" : organizationLogin)
                .query((rs, row) -> new WebhookCandidate(rs.getObject("workspace_id", UUID.class),
                        SealedSecret.of(rs.getString("sealed_webhook_secret"))))
                .list();
    }

    /**
     * Issue tracker: {@code organizationId} = {@code config.organization_id}, narrowed by
     * {@code data.teamId} = {@code config.team_id} when the connection names a team; a connection that
     * names only a team matches on the team.
     */
    List<WebhookCandidate> issueTracker(String organizationId, String teamId) {
        if (organizationId == null && teamId == null) {
            return List.of();
        }
        return jdbc.sql("""
                        select workspace_id, sealed_webhook_secret from tool_connections
                         where tool = :tool and sealed_webhook_secret is not null
                           and ((organization_id = :org and (team_id is null or team_id = :team))
                                or (organization_id is null and team_id = :team))
                         order by workspace_id
                        """)
                .param("tool", Tool.ISSUE_TRACKER.wire())
                .param("org", organizationId == null ? "" : organizationId)
                .param("team", teamId == null ? "" : teamId)
                .query((rs, row) -> new WebhookCandidate(rs.getObject("workspace_id", UUID.class),
                        SealedSecret.of(rs.getString("sealed_webhook_secret"))))
                .list();
    }

    /**
     * The workspace version the projector has reached in each of these workspaces ({@code
     * workspaces.workspace_version}, advanced in the same transaction as a connection row): a
     * connection event of version v is in {@code tool_connections} once this is at least v.
     */
    Map<UUID, Long> projectedVersions(Collection<UUID> workspaceIds) {
        if (workspaceIds.isEmpty()) {
            return Map.of();
        }
        Map<UUID, Long> versions = new HashMap<>();
        jdbc.sql("select id, workspace_version from workspaces where id in (:ids)")
                .param("ids", List.copyOf(workspaceIds))
                .query((rs, row) -> Map.entry(rs.getObject("id", UUID.class), rs.getLong("workspace_version")))
                .list()
                .forEach(entry -> versions.put(entry.getKey(), entry.getValue()));
        return versions;
    }
}
