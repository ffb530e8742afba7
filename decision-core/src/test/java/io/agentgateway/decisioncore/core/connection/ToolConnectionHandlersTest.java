package io.agentgateway.decisioncore.core.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tool connections decided by the core alone: upsert (secrets kept, set or cleared; checks; the repositories
 * limit), OAuth access tokens, webhook secret rotation, deletion, and their versions: every change gives the
 * connection the workspace version after it, and a command naming another version is answered stale.
 */
class ToolConnectionHandlersTest {
    private static final SealedSecret TOKEN = SealedSecret.of("v1.dG9rZW4tb25l");
    private static final SealedSecret NEW_TOKEN = SealedSecret.of("v1.dG9rZW4tdHdv");
    private static final SealedSecret WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LW9uZQ");

    private final CoreWorkspace workspace = CoreWorkspace.create();

    private Decided upsertMcp(String url, SecretUpdate token) {
        return workspace.admin(new UpsertToolConnection(Tool.MCP, ToolConnectionConfig.none(), url, null, McpTransport.HTTP,
                null, token, SecretUpdate.keep()));
    }

    private Decided upsertCodeHost(List<String> repos) {
        return workspace.admin(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(repos, "acme", null, null),
                null, null, null, null, SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET)));
    }

    @Test
    void an_upsert_stores_the_connection_at_the_new_workspace_version() {
        Decided upserted = upsertMcp("https://mcp.example/mcp", SecretUpdate.set(TOKEN)).ok();

        ToolConnection connection = upserted.event(0, ToolConnectionUpserted.class).connection();
        assertThat(connection.mcpServerUrl()).isEqualTo("https://mcp.example/mcp");
        assertThat(connection.mcpAuthType()).as("bearer by default").isEqualTo(McpAuthType.BEARER);
        assertThat(connection.accessToken()).isEqualTo(TOKEN);
        assertThat(connection.version()).isEqualTo(upserted.after().workspaceVersion());
        assertThat(workspace.state().toolConnection(Tool.MCP)).contains(connection);
        assertThat(upserted.after().policySetVersion()).as("connections are no policies").isEqualTo(upserted.before().policySetVersion());
    }

    @Test
    void secrets_are_kept_replaced_or_cleared_as_the_command_says() {
        upsertMcp("https://mcp.example/mcp", SecretUpdate.set(TOKEN)).ok();

        assertThat(upsertMcp("https://mcp.example/v2", SecretUpdate.keep()).ok().event(0, ToolConnectionUpserted.class)
                .connection().accessToken()).isEqualTo(TOKEN);
        assertThat(upsertMcp("https://mcp.example/v2", SecretUpdate.set(NEW_TOKEN)).ok().event(0, ToolConnectionUpserted.class)
                .connection().accessToken()).isEqualTo(NEW_TOKEN);
        assertThat(upsertMcp("https://mcp.example/v2", SecretUpdate.clear()).ok().event(0, ToolConnectionUpserted.class)
                .connection().accessToken()).isNull();
    }

    @Test
    void invalid_connections_are_refused_and_change_nothing() {
        workspace.admin(new UpsertToolConnection(null, null, null, null, null, null, SecretUpdate.keep(), SecretUpdate.keep()))
                .refused(ReplyStatus.INVALID, UpsertToolConnectionHandler.TOOL_MESSAGE);
        upsertMcp("https://mcp.example/mcp", SecretUpdate.set(SealedSecret.of("plain-token")))
                .refused(ReplyStatus.INVALID, "config.access_token must be sealed with SecretBox");
        assertThat(upsertMcp("ftp://mcp.example", SecretUpdate.keep()).status()).isEqualTo(ReplyStatus.INVALID);
        assertThat(workspace.state().toolConnections()).isEmpty();
    }

    @Test
    void the_repositories_limit_refuses_with_an_audit_entry() {
        CoreWorkspace limited = CoreWorkspace.create(DecisionSettings.defaults()
                .withLimits(DecisionLimits.defaults().withRepositoriesPerConnection(1)));

        Decided refused = limited.admin(new UpsertToolConnection(Tool.CODE_HOST,
                new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", null, null), null, null, null, null,
                SecretUpdate.keep(), SecretUpdate.keep()));

        assertThat(refused.status()).isEqualTo(ReplyStatus.LIMITED);
        assertThat(refused.event(0, LimitReached.class).limit()).isEqualTo(DecisionLimits.REPOSITORIES_PER_CONNECTION);
        assertThat(limited.state().toolConnections()).isEmpty();
    }

    @Test
    void a_token_a_rotation_and_a_deletion_each_move_the_version_and_versions_never_repeat() {
        long first = upsertCodeHost(List.of("acme/api")).ok().event(0, ToolConnectionUpserted.class).connection().version();

        Decided token = workspace.admin(new SetToolAccessToken(Tool.CODE_HOST, NEW_TOKEN)).ok();
        ToolConnection withToken = token.event(0, ToolConnectionUpserted.class).connection();
        assertThat(withToken.accessToken()).isEqualTo(NEW_TOKEN);
        assertThat(withToken.config().repos()).as("only the token changed").containsExactly("acme/api");
        assertThat(withToken.version()).isEqualTo(token.after().workspaceVersion()).isGreaterThan(first);

        SealedSecret rotatedSecret = SealedSecret.of("v1.bmV3");
        ToolConnection rotated = workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, rotatedSecret)).ok()
                .event(0, WebhookSecretRotated.class).connection();
        assertThat(rotated.webhookSecret()).isEqualTo(rotatedSecret);
        assertThat(rotated.version()).isGreaterThan(withToken.version());

        Decided deleted = workspace.admin(new DeleteToolConnection(Tool.CODE_HOST)).ok();
        assertThat(deleted.event(0, ToolConnectionDeleted.class).tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(workspace.state().toolConnection(Tool.CODE_HOST)).isEmpty();
        workspace.admin(new DeleteToolConnection(Tool.CODE_HOST))
                .refused(ReplyStatus.NOT_FOUND, DeleteToolConnectionHandler.NOT_FOUND);

        long again = upsertCodeHost(List.of("acme/api")).ok().event(0, ToolConnectionUpserted.class).connection().version();
        assertThat(again).isGreaterThan(rotated.version());
    }

    @Test
    void tokens_and_rotations_only_for_the_tools_that_have_them() {
        workspace.admin(new SetToolAccessToken(Tool.MCP, TOKEN))
                .refused(ReplyStatus.INVALID, "OAuth access tokens are only for the code_host and issue_tracker tools");
        workspace.admin(new SetToolAccessToken(Tool.CODE_HOST, SealedSecret.of("plain")))
                .refused(ReplyStatus.INVALID, "accessToken must be sealed with SecretBox");
        workspace.admin(new RotateWebhookSecret(Tool.CHAT, WEBHOOK_SECRET)).refused(ReplyStatus.INVALID,
                "webhook secrets are only for the code_host and issue_tracker tools (the tools that send webhooks)");
        workspace.admin(new RotateWebhookSecret(Tool.ISSUE_TRACKER, WEBHOOK_SECRET))
                .refused(ReplyStatus.NOT_FOUND, DeleteToolConnectionHandler.NOT_FOUND);
    }

    @Test
    void a_check_naming_an_older_version_is_stale_and_carries_the_current_connection() {
        long v1 = upsertMcp("https://a.example/mcp", SecretUpdate.set(TOKEN)).ok()
                .event(0, ToolConnectionUpserted.class).connection().version();
        ToolConnection current = upsertMcp("https://b.example/mcp", SecretUpdate.keep()).ok()
                .event(0, ToolConnectionUpserted.class).connection();
        Actor gateway = Actor.system("mcp-gate");

        Decided stale = workspace.as(gateway, new CheckAccess(null, Tool.MCP, v1, null))
                .refused(ReplyStatus.STALE, "The mcp connection is at version " + current.version()
                        + " (the request named version " + v1 + ")");
        assertThat(stale.decision().connection()).isEqualTo(current);
        workspace.as(gateway, new CheckAccess(null, Tool.MCP, current.version(), null)).ok();
        workspace.as(Actor.apiKey(CoreWorkspace.EVALUATE_KEY, null), new CheckAccess(Scope.EVALUATE, Tool.MCP, current.version(),
                null)).ok();
    }
}
