package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 12: every tool connection carries the workspace version of its last change; a command whose
 * execution uses a connection names the version the entry point holds, and is decided on nothing when
 * that is not the current one ({@code stale}, carrying the current connection). {@code check_access}
 * authorizes a key and checks a connection without recording anything; {@code set_tool_access_token}
 * changes the token alone.
 */
class ConnectionVersionsTest extends OneWorkspaceTopologyTest {
    private static final SealedSecret TOKEN = SealedSecret.of("v1.dG9rZW4tb25l");
    private static final SealedSecret NEW_TOKEN = SealedSecret.of("v1.dG9rZW4tdHdv");
    private static final SealedSecret WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LW9uZQ");
    private static final Actor VERIFIER = Actor.system("webhook-verifier");
    private static final SealedHeldCall HELD = new SealedHeldCall(HeldCallKind.MCP_TOOL_CALL, "v1.aGVsZA", "ab".repeat(32));

    String mcpKey;

    @BeforeEach
    void start() {
        mcpKey = workspace.issueKey(Set.of(Scope.MCP), null);
    }

    private WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }

    private ToolConnection connectMcp(String url) {
        Emitted emitted = workspace.admin(new UpsertToolConnection(Tool.MCP, ToolConnectionConfig.none(), url, McpAuthType.BEARER,
                McpTransport.HTTP, null, SecretUpdate.set(TOKEN), SecretUpdate.keep()));
        emitted.ok();
        return emitted.only(ToolConnectionUpserted.class).connection();
    }

    private static EvaluateAction mcpCall(String name, RiskLevel risk, Long connectionVersion) {
        return new EvaluateAction(Tool.MCP, name, risk, null, null, null, null, null, null, ActionSource.MCP, Scope.MCP,
                false, HELD, connectionVersion);
    }

    @Test
    void every_change_gives_the_connection_the_workspace_version_of_that_change_and_the_reply_names_it() {
        Emitted upserted = workspace.admin(new UpsertToolConnection(Tool.MCP, ToolConnectionConfig.none(), "https://a.example/mcp",
                McpAuthType.BEARER, McpTransport.HTTP, null, SecretUpdate.set(TOKEN), SecretUpdate.keep()));
        long v1 = upserted.events().get(0).workspaceVersion();
        assertThat(upserted.only(ToolConnectionUpserted.class).connection().version()).isEqualTo(v1);
        assertThat(upserted.reply().workspaceVersion()).isEqualTo(v1);
        assertThat(state().toolConnection(Tool.MCP)).get().extracting(ToolConnection::version).isEqualTo(v1);

        // the same body again is still a change of version: whoever holds v1 is told
        Emitted again = workspace.admin(new UpsertToolConnection(Tool.MCP, ToolConnectionConfig.none(), "https://a.example/mcp",
                McpAuthType.BEARER, McpTransport.HTTP, null, SecretUpdate.keep(), SecretUpdate.keep()));
        assertThat(again.only(ToolConnectionUpserted.class).connection().version()).isEqualTo(v1 + 1);

        workspace.admin(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), null, null, null),
                null, null, null, null, SecretUpdate.keep(), SecretUpdate.set(WEBHOOK_SECRET))).ok();
        Emitted rotated = workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, SealedSecret.of("v1.bmV3")));
        assertThat(rotated.only(WebhookSecretRotated.class).connection().version()).isEqualTo(rotated.events().get(0).workspaceVersion());

        Emitted token = workspace.admin(new SetToolAccessToken(Tool.CODE_HOST, NEW_TOKEN));
        ToolConnection withToken = token.only(ToolConnectionUpserted.class).connection();
        assertThat(withToken.version()).isEqualTo(token.events().get(0).workspaceVersion());

        workspace.admin(new DeleteToolConnection(Tool.MCP)).ok();
        assertThat(state().toolConnection(Tool.MCP)).isEmpty();
    }

    @Test
    void an_evaluation_naming_the_current_version_is_decided_and_one_naming_another_is_stale_with_nothing_recorded() {
        ToolConnection first = connectMcp("https://a.example/mcp");
        workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, first.version())).evaluation();

        ToolConnection second = connectMcp("https://b.example/mcp");
        WorkspaceState before = state();
        Emitted stale = workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, first.version()));
        Reply reply = stale.reply();
        assertThat(reply.status()).isEqualTo(ReplyStatus.STALE);
        assertThat(reply.error()).isEqualTo("The mcp connection is at version " + second.version()
                + " (the request named version " + first.version() + ")");
        assertThat(reply.connection()).isEqualTo(second);
        assertThat(reply.workspaceVersion()).isEqualTo(before.workspaceVersion());
        assertThat(reply.evaluation()).isNull();
        stale.assertNothingButTheReply();
        assertThat(state()).as("nothing decided, nothing changed").isEqualTo(before);

        // a call that would be held opens its approval only when the connection it holds is the current one
        Emitted held = workspace.as(workspace.agent(mcpKey), mcpCall("delete_repo", RiskLevel.HIGH, second.version()));
        assertThat(held.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(held.event(1, ApprovalRequested.class).heldCall()).isEqualTo(HELD);
    }

    @Test
    void none_is_version_zero_both_ways() {
        Emitted noneHeld = workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, ToolConnection.NONE));
        assertThat(noneHeld.evaluation().decision()).isEqualTo(Decision.ALLOW);

        ToolConnection connected = connectMcp("https://a.example/mcp");
        Reply stale = workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, ToolConnection.NONE)).reply();
        assertThat(stale.status()).isEqualTo(ReplyStatus.STALE);
        assertThat(stale.connection()).isEqualTo(connected);

        workspace.admin(new DeleteToolConnection(Tool.MCP)).ok();
        Emitted gone = workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, connected.version()));
        assertThat(gone.reply().status()).isEqualTo(ReplyStatus.STALE);
        assertThat(gone.reply().connection()).as("none").isNull();
        assertThat(gone.reply().error()).isEqualTo("The workspace has no mcp connection (the request named version "
                + connected.version() + ")");
    }

    @Test
    void the_key_is_checked_before_the_connection_so_a_bad_key_learns_nothing_of_it() {
        connectMcp("https://a.example/mcp");
        Emitted refused = workspace.as(workspace.agent(TestWorkspace.sha256("agk_unknown")), mcpCall("list_repos", RiskLevel.LOW, 0L));
        refused.refused(ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        assertThat(refused.reply().connection()).isNull();
    }

    @Test
    void an_evaluation_without_a_version_is_not_checked() {
        connectMcp("https://a.example/mcp");
        assertThat(workspace.evaluate(Tool.MCP, "list_repos", RiskLevel.LOW).evaluation().decision()).isEqualTo(Decision.ALLOW);
    }

    @Test
    void a_connection_stored_before_versions_counts_as_version_one() {
        ToolConnection stored = connectMcp("https://a.example/mcp");
        WorkspaceState legacy = state().withToolConnection(new ToolConnection(Tool.MCP, stored.config(), stored.accessToken(), null,
                stored.mcpServerUrl(), stored.mcpAuthType(), stored.mcpTransport(), null));
        driver.workspaceStates().put(workspace.id, legacy);
        assertThat(workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, ToolConnection.UNVERSIONED))
                .evaluation().decision()).isEqualTo(Decision.ALLOW);
        Reply stale = workspace.as(workspace.agent(mcpKey), mcpCall("list_repos", RiskLevel.LOW, stored.version())).reply();
        assertThat(stale.status()).isEqualTo(ReplyStatus.STALE);
        assertThat(ToolConnection.versionOf(stale.connection())).isEqualTo(ToolConnection.UNVERSIONED);
    }

    @Test
    void check_access_authorizes_the_key_in_log_order_and_records_nothing() {
        ToolConnection connected = connectMcp("https://a.example/mcp");
        WorkspaceState before = state();
        Emitted ok = workspace.as(workspace.agent(mcpKey), new CheckAccess(Scope.MCP, Tool.MCP, connected.version(), null));
        ok.ok();
        ok.assertNothingButTheReply();
        assertThat(ok.reply().connection()).isNull();
        assertThat(state()).isEqualTo(before);

        // another scope, or any scope
        workspace.as(workspace.agent(mcpKey), new CheckAccess(Scope.PROXY, null, null, null))
                .refused(ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        workspace.as(workspace.agent(mcpKey), new CheckAccess(null, null, null, null)).ok();

        // stale: the key may act, and here is the current connection
        Reply stale = workspace.as(workspace.agent(mcpKey), new CheckAccess(Scope.MCP, Tool.MCP, 0L, null)).reply();
        assertThat(stale.status()).isEqualTo(ReplyStatus.STALE);
        assertThat(stale.connection()).isEqualTo(connected);

        // revoked: refused from the next command on, and a fresh key works at once
        String keyId = state().apiKeyByHash(mcpKey).orElseThrow().keyId();
        workspace.admin(new RevokeApiKey(keyId)).ok();
        workspace.as(workspace.agent(mcpKey), new CheckAccess(null, Tool.MCP, connected.version(), null))
                .refused(ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        String fresh = workspace.issueKey(Set.of(Scope.MCP), null);
        workspace.as(workspace.agent(fresh), new CheckAccess(Scope.MCP, Tool.MCP, connected.version(), null)).ok();
    }

    @Test
    void check_access_is_for_keys_and_the_gateway_itself_only() {
        ToolConnection connected = connectMcp("https://a.example/mcp");
        workspace.as(VERIFIER, new CheckAccess(null, Tool.MCP, connected.version(), null)).ok();
        workspace.as(workspace.owner, new CheckAccess(null, Tool.MCP, connected.version(), null))
                .refused(ReplyStatus.FORBIDDEN, "Only API keys and the gateway itself may check access");
        Actor member = workspace.member("member-1", Role.MEMBER);
        workspace.as(member, new CheckAccess(null, null, null, null))
                .refused(ReplyStatus.FORBIDDEN, "Only API keys and the gateway itself may check access");
    }

    @Test
    void check_access_shows_an_approval_while_the_workspace_holds_it() {
        ToolConnection connected = connectMcp("https://a.example/mcp");
        Emitted held = workspace.as(workspace.agent(mcpKey), mcpCall("delete_repo", RiskLevel.HIGH, connected.version()));
        ApprovalRequested requested = held.event(1, ApprovalRequested.class);

        Reply reply = workspace.as(workspace.agent(mcpKey), new CheckAccess(null, null, null, requested.approvalId())).ok();
        // when and by which key it was opened, and what it holds: what an MCP task of it says before the read model has it
        assertThat(reply.approval()).isEqualTo(new ApprovalSnapshot(requested.approvalId(), "pending", Tool.MCP, "delete_repo",
                requested.expiresAt(), held.events().get(1).occurredAt(), mcpKey, HeldCallKind.MCP_TOOL_CALL));
        assertThat(workspace.as(workspace.agent(mcpKey), new CheckAccess(null, null, null, UUID.randomUUID().toString()))
                .ok().approval()).isNull();
    }

    @Test
    void set_tool_access_token_changes_the_token_alone_and_makes_a_connection_when_there_is_none() {
        workspace.admin(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), "acme", null, null),
                null, null, null, "https://code.example/api/v3", SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET))).ok();
        ToolConnection after = workspace.admin(new SetToolAccessToken(Tool.CODE_HOST, NEW_TOKEN))
                .only(ToolConnectionUpserted.class).connection();
        assertThat(after.accessToken()).isEqualTo(NEW_TOKEN);
        assertThat(after.webhookSecret()).isEqualTo(WEBHOOK_SECRET);
        assertThat(after.config().repos()).containsExactly("acme/api");
        assertThat(after.baseUrl()).isEqualTo("https://code.example/api/v3");

        ToolConnection created = workspace.admin(new SetToolAccessToken(Tool.ISSUE_TRACKER, TOKEN))
                .only(ToolConnectionUpserted.class).connection();
        assertThat(created.accessToken()).isEqualTo(TOKEN);
        assertThat(created.config()).isEqualTo(ToolConnectionConfig.none());

        workspace.admin(new SetToolAccessToken(Tool.MCP, TOKEN))
                .refused(ReplyStatus.INVALID, "OAuth access tokens are only for the code_host and issue_tracker tools");
        workspace.admin(new SetToolAccessToken(Tool.CODE_HOST, SealedSecret.of("plain")))
                .refused(ReplyStatus.INVALID, "accessToken must be sealed with SecretBox");
        Actor member = workspace.member("member-2", Role.MEMBER);
        workspace.as(member, new SetToolAccessToken(Tool.CODE_HOST, NEW_TOKEN))
                .refused(ReplyStatus.FORBIDDEN, "Admin or owner role required");
    }

    @Test
    void a_webhook_verified_with_an_older_connection_is_stale_and_one_the_connection_no_longer_watches_is_unprocessed() {
        Emitted connected = workspace.admin(new UpsertToolConnection(Tool.CODE_HOST,
                new ToolConnectionConfig(List.of("acme/api"), null, null, null), null, null, null, null, SecretUpdate.keep(),
                SecretUpdate.set(WEBHOOK_SECRET)));
        ToolConnection first = connected.only(ToolConnectionUpserted.class).connection();
        JsonNode payload = GatewayJson.MAPPER.readTree("{\"action\":\"opened\",\"repository\":{\"full_name\":\"Acme/API\"}}");
        ReceiveWebhook delivery = new ReceiveWebhook(Tool.CODE_HOST, "d-1", "pull_request", "opened", "octocat", "repository",
                "Acme/API", payload);
        Emitted processed = workspace.as(VERIFIER, delivery.verifiedWith(first.version()));
        assertThat(processed.evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(processed.event(1, WebhookReceived.class).processed()).isTrue();

        ToolConnection rotated = workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, SealedSecret.of("v1.bmV3")))
                .only(WebhookSecretRotated.class).connection();
        ReceiveWebhook second = new ReceiveWebhook(Tool.CODE_HOST, "d-2", "pull_request", "opened", "octocat", "repository",
                "Acme/API", payload);
        Emitted stale = workspace.as(VERIFIER, second.verifiedWith(first.version()));
        assertThat(stale.reply().status()).isEqualTo(ReplyStatus.STALE);
        assertThat(stale.reply().connection()).isEqualTo(rotated);
        stale.assertNothingButTheReply();
        // not remembered as a delivery: verified again with the current secret, it is recorded
        assertThat(workspace.as(VERIFIER, second.verifiedWith(rotated.version())).evaluation().decision()).isEqualTo(Decision.ALLOW);

        // the connection stops watching the repository: a delivery naming it is recorded unprocessed
        ToolConnection elsewhere = workspace.admin(new UpsertToolConnection(Tool.CODE_HOST,
                new ToolConnectionConfig(List.of("acme/web"), null, null, null), null, null, null, null, SecretUpdate.keep(),
                SecretUpdate.keep())).only(ToolConnectionUpserted.class).connection();
        Emitted unwatched = workspace.as(VERIFIER, new ReceiveWebhook(Tool.CODE_HOST, "d-3", "pull_request", "opened", "octocat",
                "repository", "Acme/API", payload).verifiedWith(elsewhere.version()));
        unwatched.ok();
        assertThat(unwatched.only(WebhookReceived.class).processed()).isFalse();
    }
}
