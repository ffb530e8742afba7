package io.agentgateway.webhooks;

import io.agentgateway.httpedge.web.SqlRows;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.SealedSecret;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The connections, across every workspace, that a delivery's payload names (spec 6 rules 1 and 2),
 * read from the projector's {@code tool_connections} on every delivery (a cross-workspace index, which
 * the decision stream, partitioned by workspace, cannot answer). Only connections with a webhook secret
 * can verify anything, so only those are candidates. The rows are only candidates: the secret and the
 * config a delivery is trusted with are checked against the decision stream's current connection
 * ({@code ReceiveWebhook} names the version; see {@link WebhookHandler}). Names are compared
 * case-insensitively, as {@code WebhookWatch} does: the code host treats {@code Acme/API} and
 * {@code acme/api} as the same repository. Blocking: call off the event loop.
 */
@Repository
class WebhookCandidateQueries {
    /** What verifying a delivery needs of a connection: what it watches, its secret and its version. */
    private static final String COLUMNS = "workspace_id, repos, org, organization_id, team_id, sealed_webhook_secret, version";

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
                        select %s from tool_connections
                         where tool = :tool and sealed_webhook_secret is not null
                           and (exists (select 1 from unnest(repos) r where lower(r) = lower(:repo))
                                or lower(org) = lower(:org))
                         order by workspace_id
                        """.formatted(COLUMNS))
                .param("tool", Tool.CODE_HOST.wire())
                .param("repo", repositoryFullName == null ? "" : repositoryFullName)
                .param("org", organizationLogin == null ? "" : organizationLogin)
                .query((rs, row) -> candidate(Tool.CODE_HOST, rs))
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
                        select %s from tool_connections
                         where tool = :tool and sealed_webhook_secret is not null
                           and ((organization_id = :org and (team_id is null or team_id = :team))
                                or (organization_id is null and team_id = :team))
                         order by workspace_id
                        """.formatted(COLUMNS))
                .param("tool", Tool.ISSUE_TRACKER.wire())
                .param("org", organizationId == null ? "" : organizationId)
                .param("team", teamId == null ? "" : teamId)
                .query((rs, row) -> candidate(Tool.ISSUE_TRACKER, rs))
                .list();
    }

    private static WebhookCandidate candidate(Tool tool, ResultSet rs) throws SQLException {
        ToolConnectionConfig config = new ToolConnectionConfig(SqlRows.textArray(rs, "repos"), rs.getString("org"),
                rs.getString("organization_id"), rs.getString("team_id"));
        return new WebhookCandidate(rs.getObject("workspace_id", UUID.class), new ToolConnection(tool, config, null,
                SealedSecret.of(rs.getString("sealed_webhook_secret")), null, null, null, null, rs.getLong("version")));
    }
}
