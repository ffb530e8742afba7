package io.agentgateway.ingress.webhook;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The connections, across every workspace, that a delivery's payload names (spec 6 rules 1 and 2),
 * read from the projector's {@code tool_connections}. Only connections with a webhook secret can
 * verify anything, so only those are candidates. Names are compared case-insensitively: the code
 * host treats {@code Acme/API} and {@code acme/api} as the same repository. Blocking: call off the
 * event loop.
 */
@Repository
class WebhookCandidates {
    private final JdbcClient jdbc;

    WebhookCandidates(JdbcClient jdbc) {
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
}
