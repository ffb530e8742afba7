package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.SecretChange;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Tool connections through the topology: stored per workspace and tool, validated, secrets sealed and write-only. */
class ToolConnectionCommandsTest extends OneWorkspaceTopologyTest {
    private static final SealedSecret TOKEN = SealedSecret.of("v1.dG9rZW4tb25l");
    private static final SealedSecret OTHER_TOKEN = SealedSecret.of("v1.dG9rZW4tdHdv");
    private static final SealedSecret WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LW9uZQ");
    private static final SealedSecret NEW_WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LXR3bw");

    WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }

    static UpsertToolConnection codeHost(List<String> repos, String org, SecretUpdate token, SecretUpdate webhookSecret) {
        return new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(repos, org, null, null), null, null, null,
                "https://code.example/api/v3", token, webhookSecret);
    }

    @Test
    void an_upsert_stores_the_whole_connection_and_emits_it_with_the_next_workspace_version() {
        long before = state().workspaceVersion();
        long policySetVersion = state().policySetVersion();
        Emitted emitted = workspace.admin(codeHost(List.of("acme/api", "acme/web"), "acme",
                SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET)));

        emitted.ok();
        ToolConnection expected = new ToolConnection(Tool.CODE_HOST,
                new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", null, null), TOKEN, WEBHOOK_SECRET,
                null, null, null, "https://code.example/api/v3", before + 1);
        assertThat(emitted.only(ToolConnectionUpserted.class).connection()).isEqualTo(expected);
        assertThat(emitted.events()).extracting(EventEnvelope::workspaceVersion).containsExactly(before + 1);
        assertThat(emitted.notifications()).isEmpty();
        assertThat(state().toolConnection(Tool.CODE_HOST)).contains(expected);
        assertThat(state().workspaceVersion()).isEqualTo(before + 1);
        assertThat(state().policySetVersion()).as("connections are not policies").isEqualTo(policySetVersion);
    }

    @Test
    void secrets_are_kept_unless_set_or_cleared_and_the_other_fields_are_replaced() {
        workspace.admin(codeHost(List.of("acme/api"), "acme", SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET))).ok();

        // the admin changes only the repositories: the secrets stay (absent and "keep" mean the same)
        workspace.admin(codeHost(List.of("acme/web"), null, null, SecretUpdate.keep())).ok();
        ToolConnection kept = state().toolConnection(Tool.CODE_HOST).orElseThrow();
        assertThat(kept.config()).isEqualTo(new ToolConnectionConfig(List.of("acme/web"), null, null, null));
        assertThat(kept.accessToken()).isEqualTo(TOKEN);
        assertThat(kept.webhookSecret()).isEqualTo(WEBHOOK_SECRET);

        Emitted replaced = workspace.admin(codeHost(List.of(), null, SecretUpdate.set(OTHER_TOKEN), SecretUpdate.clear()));
        assertThat(replaced.only(ToolConnectionUpserted.class).connection().accessToken()).isEqualTo(OTHER_TOKEN);
        assertThat(state().toolConnection(Tool.CODE_HOST).orElseThrow().webhookSecret()).isNull();

        workspace.admin(codeHost(List.of(), null, SecretUpdate.clear(), null)).ok();
        assertThat(state().toolConnection(Tool.CODE_HOST).orElseThrow().accessToken()).isNull();
    }

    @Test
    void each_tool_has_its_own_connection() {
        workspace.admin(codeHost(List.of("acme/api"), null, SecretUpdate.set(TOKEN), null)).ok();
        workspace.admin(new UpsertToolConnection(Tool.ISSUE_TRACKER, new ToolConnectionConfig(null, null, "org-1", "team-1"),
                null, null, null, null, SecretUpdate.set(OTHER_TOKEN), SecretUpdate.set(WEBHOOK_SECRET))).ok();

        assertThat(state().toolConnections()).containsOnlyKeys(Tool.CODE_HOST, Tool.ISSUE_TRACKER);
        assertThat(state().toolConnection(Tool.ISSUE_TRACKER).orElseThrow().config())
                .isEqualTo(new ToolConnectionConfig(List.of(), null, "org-1", "team-1"));
        assertThat(state().toolConnection(Tool.CODE_HOST).orElseThrow().accessToken()).isEqualTo(TOKEN);
    }

    @Test
    void an_mcp_connection_presents_its_token_as_bearer_unless_told_otherwise() {
        workspace.admin(new UpsertToolConnection(Tool.MCP, null, "https://mcp.example/sse", null, McpTransport.SSE, null,
                SecretUpdate.set(TOKEN), null)).ok();
        assertThat(state().toolConnection(Tool.MCP).orElseThrow().mcpAuthType()).isEqualTo(McpAuthType.BEARER);

        workspace.admin(new UpsertToolConnection(Tool.MCP, null, "http://10.0.0.5:8080/mcp", McpAuthType.TOKEN,
                McpTransport.HTTP, null, null, null)).ok();
        ToolConnection mcp = state().toolConnection(Tool.MCP).orElseThrow();
        assertThat(mcp.mcpAuthType()).isEqualTo(McpAuthType.TOKEN);
        assertThat(mcp.mcpTransport()).isEqualTo(McpTransport.HTTP);
        assertThat(mcp.accessToken()).as("kept").isEqualTo(TOKEN);
    }

    static Stream<Arguments> invalidUpserts() {
        ToolConnectionConfig none = ToolConnectionConfig.none();
        return Stream.of(
                Arguments.of(new UpsertToolConnection(null, none, null, null, null, null, null, null),
                        "tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp"),
                Arguments.of(codeHost(List.of("acme"), null, null, null), "config.repos entries must have the form owner/repo"),
                Arguments.of(codeHost(List.of("acme/api/x"), null, null, null), "config.repos entries must have the form owner/repo"),
                Arguments.of(codeHost(List.of("acme/.."), null, null, null), "config.repos entries must have the form owner/repo"),
                Arguments.of(codeHost(List.of(" acme/api"), null, null, null), "config.repos entries must have the form owner/repo"),
                Arguments.of(codeHost(List.of("acme/api", "Acme/API"), null, null, null), "config.repos lists Acme/API twice"),
                Arguments.of(codeHost(List.of(), "acme corp", null, null),
                        "config.org must be an organization login (letters, digits, hyphens)"),
                Arguments.of(new UpsertToolConnection(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of("acme/api"), null, null, null),
                        null, null, null, null, null, null), "config.repos is only for the code_host tool"),
                Arguments.of(new UpsertToolConnection(Tool.ISSUE_TRACKER, new ToolConnectionConfig(null, "acme", null, null),
                        null, null, null, null, null, null), "config.org is only for the code_host tool"),
                Arguments.of(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(null, null, "org-1", null),
                        null, null, null, null, null, null), "config.organization_id is only for the issue_tracker tool"),
                Arguments.of(new UpsertToolConnection(Tool.DOCS, new ToolConnectionConfig(null, null, null, "team-1"),
                        null, null, null, null, null, null), "config.team_id is only for the issue_tracker tool"),
                Arguments.of(new UpsertToolConnection(Tool.ISSUE_TRACKER, new ToolConnectionConfig(null, null, " org", null),
                        null, null, null, null, null, null),
                        "config.organization_id must be a non-empty id without surrounding spaces (at most 200 characters)"),
                Arguments.of(new UpsertToolConnection(Tool.CODE_HOST, none, "https://mcp.example", null, null, null, null, null),
                        "mcp_server_url is only for the mcp tool"),
                Arguments.of(new UpsertToolConnection(Tool.CHAT, none, null, McpAuthType.TOKEN, null, null, null, null),
                        "mcp_auth_type is only for the mcp tool"),
                Arguments.of(new UpsertToolConnection(Tool.CHAT, none, null, null, McpTransport.SSE, null, null, null),
                        "mcp_transport is only for the mcp tool"),
                Arguments.of(new UpsertToolConnection(Tool.MCP, none, null, null, McpTransport.SSE, null, null, null),
                        "mcp_server_url is required for the mcp tool"),
                Arguments.of(new UpsertToolConnection(Tool.MCP, none, "https://mcp.example", null, null, null, null, null),
                        "mcp_transport is required for the mcp tool: sse or http"),
                Arguments.of(new UpsertToolConnection(Tool.MCP, none, "ftp://mcp.example", null, McpTransport.HTTP, null, null, null),
                        "mcp_server_url must be an absolute http or https URL"),
                Arguments.of(new UpsertToolConnection(Tool.MCP, none, "/relative/mcp", null, McpTransport.HTTP, null, null, null),
                        "mcp_server_url must be an absolute http or https URL"),
                Arguments.of(new UpsertToolConnection(Tool.INTERNAL_API, none, null, null, null, "https://user:pw@api.example", null, null),
                        "base_url must not carry credentials: put the token into config.access_token"),
                Arguments.of(new UpsertToolConnection(Tool.INTERNAL_API, none, null, null, null, "https://api.example/#x", null, null),
                        "base_url must not have a fragment (#...)"),
                Arguments.of(new UpsertToolConnection(Tool.INTERNAL_API, none, null, null, null, "not a url", null, null),
                        "base_url must be an absolute http or https URL"),
                Arguments.of(new UpsertToolConnection(Tool.CHAT, none, null, null, null, null, null, SecretUpdate.set(WEBHOOK_SECRET)),
                        "webhook_secret is only for the code_host and issue_tracker tools (the tools that send webhooks)"),
                Arguments.of(codeHost(List.of(), null, SecretUpdate.set(SealedSecret.of("ghp_plainTextToken")), null),
                        "config.access_token must be sealed with SecretBox"),
                Arguments.of(codeHost(List.of(), null, new SecretUpdate(SecretChange.SET, null), null),
                        "config.access_token must be sealed with SecretBox"),
                Arguments.of(codeHost(List.of(), null, null, SecretUpdate.set(SealedSecret.of("whsec-plain"))),
                        "webhook_secret must be sealed with SecretBox"),
                Arguments.of(codeHost(List.of(), null, new SecretUpdate(null, null), null),
                        "config.access_token must be kept, set or cleared"),
                Arguments.of(codeHost(List.of(), null, new SecretUpdate(SecretChange.CLEAR, TOKEN), null),
                        "config.access_token carries a value only when it is set"),
                Arguments.of(withRules(Tool.CODE_HOST, rule("POST", "/repos/**", "repo.write", RiskLevel.LOW)),
                        "config.rules is only for the chat, docs and internal_api tools; code_host requests are classified by the spec's fixed tables"),
                Arguments.of(withRules(Tool.ISSUE_TRACKER, rule("POST", "/graphql", "read", RiskLevel.LOW)),
                        "config.rules is only for the chat, docs and internal_api tools; issue_tracker requests are classified by the spec's fixed tables"),
                Arguments.of(withRules(Tool.MCP, rule("POST", "/x", "x", RiskLevel.LOW)),
                        "config.rules is only for the chat, docs and internal_api tools; mcp requests are classified by the spec's fixed tables"),
                Arguments.of(withRules(Tool.CHAT, rule("post", "/channels", "message.send", RiskLevel.LOW)),
                        "config.rules[0].method must be one of: *, GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
                Arguments.of(withRules(Tool.CHAT, rule("GET", "/ok", "read", RiskLevel.LOW), rule("GET", "channels", "read", RiskLevel.LOW)),
                        "config.rules[1].path must start with / and consist of literal segments, * (one segment) and a final ** (any further segments), at most 512 characters"),
                Arguments.of(withRules(Tool.CHAT, rule("GET", "/channels/ab*", "read", RiskLevel.LOW)),
                        "config.rules[0].path must start with / and consist of literal segments, * (one segment) and a final ** (any further segments), at most 512 characters"),
                Arguments.of(withRules(Tool.CHAT, rule("GET", "/channels//x", "read", RiskLevel.LOW)),
                        "config.rules[0].path must start with / and consist of literal segments, * (one segment) and a final ** (any further segments), at most 512 characters"),
                Arguments.of(withRules(Tool.CHAT, rule("GET", "/channels?x=1", "read", RiskLevel.LOW)),
                        "config.rules[0].path must start with / and consist of literal segments, * (one segment) and a final ** (any further segments), at most 512 characters"),
                Arguments.of(withRules(Tool.DOCS, rule("GET", "/**/pages", "read", RiskLevel.LOW)),
                        "config.rules[0].path may use ** only as its last segment"),
                Arguments.of(withRules(Tool.DOCS, rule("GET", "/pages/../admin", "read", RiskLevel.LOW)),
                        "config.rules[0].path must not contain '.' or '..' segments"),
                Arguments.of(withRules(Tool.INTERNAL_API, rule("GET", "/x", "Message Send", RiskLevel.LOW)),
                        "config.rules[0].action must be dot-separated words of a-z, 0-9, '_' and '-' (e.g. message.send), at most 100 characters"),
                Arguments.of(withRules(Tool.INTERNAL_API, rule("GET", "/x", "a".repeat(101), RiskLevel.LOW)),
                        "config.rules[0].action must be dot-separated words of a-z, 0-9, '_' and '-' (e.g. message.send), at most 100 characters"),
                Arguments.of(withRules(Tool.INTERNAL_API, rule("GET", "/x", "x.read", null)),
                        "config.rules[0].risk must be one of: low, medium, high, critical"),
                Arguments.of(withRules(Tool.INTERNAL_API, (ClassificationRule) null),
                        "config.rules[0] must be an object with method, path, action and risk"),
                Arguments.of(withRules(Tool.CHAT, Collections.nCopies(101, rule("GET", "/x", "read", RiskLevel.LOW))
                                .toArray(ClassificationRule[]::new)),
                        "config.rules may hold at most 100 rules"));
    }

    static ClassificationRule rule(String method, String path, String action, RiskLevel risk) {
        return new ClassificationRule(method, path, action, risk);
    }

    static UpsertToolConnection withRules(Tool tool, ClassificationRule... rules) {
        return new UpsertToolConnection(tool, new ToolConnectionConfig(null, null, null, null, Arrays.asList(rules)),
                null, null, null, null, null, null);
    }

    @Test
    void a_chat_connection_stores_its_rules_in_order() {
        List<ClassificationRule> rules = List.of(rule("POST", "/channels/*/messages", "message.send", RiskLevel.LOW),
                rule("*", "/admin/**", "admin.call", RiskLevel.CRITICAL), rule("GET", "/", "root.read", RiskLevel.LOW));
        Emitted emitted = workspace.admin(withRules(Tool.CHAT, rules.toArray(ClassificationRule[]::new)));

        emitted.ok();
        ToolConnection stored = state().toolConnection(Tool.CHAT).orElseThrow();
        assertThat(stored.config().rules()).containsExactlyElementsOf(rules);
        assertThat(emitted.only(ToolConnectionUpserted.class).connection().config().rules()).containsExactlyElementsOf(rules);

        // a later upsert replaces the rules as given, like every other non-secret field
        workspace.admin(withRules(Tool.CHAT)).ok();
        assertThat(state().toolConnection(Tool.CHAT).orElseThrow().config().rules()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("invalidUpserts")
    void an_invalid_upsert_is_refused_with_a_clear_reason_and_changes_nothing(UpsertToolConnection command, String error) {
        workspace.admin(codeHost(List.of("acme/api"), null, SecretUpdate.set(TOKEN), null)).ok();
        WorkspaceState before = state();

        workspace.admin(command).refused(ReplyStatus.INVALID, error);

        assertThat(state()).isEqualTo(before);
    }

    @Test
    void a_delete_removes_the_connection_and_its_secrets_but_not_the_pause() {
        workspace.admin(codeHost(List.of("acme/api"), null, SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET))).ok();
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CODE_HOST)).ok();
        long before = state().workspaceVersion();

        Emitted deleted = workspace.admin(new DeleteToolConnection(Tool.CODE_HOST));

        deleted.ok();
        assertThat(deleted.only(ToolConnectionDeleted.class)).isEqualTo(new ToolConnectionDeleted(Tool.CODE_HOST));
        assertThat(deleted.events().get(0).workspaceVersion()).isEqualTo(before + 1);
        assertThat(state().toolConnections()).isEmpty();
        assertThat(state().pausedTools()).containsExactly(Tool.CODE_HOST);

        workspace.admin(new DeleteToolConnection(Tool.CODE_HOST)).refused(ReplyStatus.NOT_FOUND, "Tool connection not found");
        assertThat(state().workspaceVersion()).isEqualTo(before + 1);
    }

    @Test
    void a_rotation_replaces_only_the_webhook_secret() {
        workspace.admin(codeHost(List.of("acme/api"), "acme", SecretUpdate.set(TOKEN), SecretUpdate.set(WEBHOOK_SECRET))).ok();
        ToolConnection before = state().toolConnection(Tool.CODE_HOST).orElseThrow();

        Emitted rotated = workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, NEW_WEBHOOK_SECRET));

        rotated.ok();
        ToolConnection after = rotated.only(WebhookSecretRotated.class).connection();
        assertThat(after).isEqualTo(before.withWebhookSecret(NEW_WEBHOOK_SECRET)
                .withVersion(rotated.events().get(0).workspaceVersion()));
        assertThat(after.accessToken()).isEqualTo(TOKEN);
        assertThat(state().toolConnection(Tool.CODE_HOST)).contains(after);
    }

    @Test
    void a_rotation_needs_a_connection_of_a_tool_that_sends_webhooks_and_a_sealed_secret() {
        workspace.admin(new RotateWebhookSecret(Tool.ISSUE_TRACKER, NEW_WEBHOOK_SECRET))
                .refused(ReplyStatus.NOT_FOUND, "Tool connection not found");
        workspace.admin(new UpsertToolConnection(Tool.DOCS, null, null, null, null, null, SecretUpdate.set(TOKEN), null)).ok();
        workspace.admin(new RotateWebhookSecret(Tool.DOCS, NEW_WEBHOOK_SECRET)).refused(ReplyStatus.INVALID,
                "webhook secrets are only for the code_host and issue_tracker tools (the tools that send webhooks)");
        workspace.admin(codeHost(List.of(), null, null, null)).ok();
        workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, SealedSecret.of("plain-secret")))
                .refused(ReplyStatus.INVALID, "webhook_secret must be sealed with SecretBox");
        workspace.admin(new RotateWebhookSecret(Tool.CODE_HOST, null))
                .refused(ReplyStatus.INVALID, "webhook_secret must be sealed with SecretBox");
    }

    @Test
    void an_admin_may_change_connections_and_a_demoted_one_may_not() {
        Actor admin = workspace.member("an-admin", Role.ADMIN);
        workspace.as(admin, codeHost(List.of("acme/api"), null, SecretUpdate.set(TOKEN), null)).ok();
        workspace.admin(new io.agentgateway.schemas.command.SetMember("an-admin", null, Role.MEMBER)).ok();

        workspace.as(admin, new DeleteToolConnection(Tool.CODE_HOST))
                .refused(ReplyStatus.FORBIDDEN, "Admin or owner role required");
        assertThat(state().toolConnection(Tool.CODE_HOST)).isPresent();
    }
}
