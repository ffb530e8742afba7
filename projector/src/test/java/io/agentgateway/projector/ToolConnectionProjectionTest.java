package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.secret.SealedSecret;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** tool_connections: one row per workspace and tool, secrets sealed, never rolled back by a replay. */
class ToolConnectionProjectionTest extends ProjectorTestCase {
    private static final SealedSecret TOKEN = SealedSecret.of("v1.dG9rZW4tb25l");
    private static final SealedSecret WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LW9uZQ");
    private static final SealedSecret ROTATED_SECRET = SealedSecret.of("v1.c2VjcmV0LXR3bw");

    ToolConnectionProjectionTest() {
        super("projector_tool_connections");
    }

    private static ToolConnection codeHost(SealedSecret webhookSecret) {
        return new ToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", null, null),
                TOKEN, webhookSecret, null, null, null, "https://code.example/api/v3");
    }

    private static final ToolConnection MCP = new ToolConnection(Tool.MCP, ToolConnectionConfig.none(), TOKEN, null,
            "https://mcp.example/sse", McpAuthType.TOKEN, McpTransport.SSE, null);

    private static final ToolConnection ISSUE_TRACKER = new ToolConnection(Tool.ISSUE_TRACKER,
            new ToolConnectionConfig(List.of(), null, "org-1", "team-1"), null, WEBHOOK_SECRET, null, null, null, null);

    @Test
    void upsertsRotationsAndDeletesLandInTheTable() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope rotation;
        publisher.publish(
                ws.created("Tools"),
                ws.stateChange(c -> new ToolConnectionUpserted(codeHost(WEBHOOK_SECRET))),
                ws.stateChange(c -> new ToolConnectionUpserted(MCP)),
                ws.stateChange(c -> new ToolConnectionUpserted(ISSUE_TRACKER)),
                rotation = ws.stateChange(c -> new WebhookSecretRotated(codeHost(ROTATED_SECRET))),
                ws.stateChange(c -> new ToolConnectionDeleted(Tool.ISSUE_TRACKER)));

        eventually().until(() -> jdbc.queryForObject(
                "select workspace_version from workspaces where id = ?::uuid", Long.class, ws.workspaceId), v -> v == ws.version());

        List<Map<String, Object>> rows = jdbc.queryForList("""
                select tool, array_to_string(repos, ',') as repos, org, organization_id, team_id, sealed_access_token,
                       sealed_webhook_secret, mcp_server_url, mcp_auth_type, mcp_transport, base_url, version, updated_at,
                       updated_by
                  from tool_connections where workspace_id = ?::uuid order by tool""", ws.workspaceId);
        assertThat(rows).satisfiesExactly(
                codeHost -> assertThat(codeHost).contains(entry("tool", "code_host"), entry("repos", "acme/api,acme/web"),
                        entry("org", "acme"), entry("organization_id", null), entry("sealed_access_token", TOKEN.value()),
                        entry("sealed_webhook_secret", ROTATED_SECRET.value()), entry("mcp_server_url", null),
                        entry("base_url", "https://code.example/api/v3"), entry("version", rotation.workspaceVersion()),
                        entry("updated_at", Timestamp.from(rotation.occurredAt())),
                        entry("updated_by", WorkspaceEvents.ADMIN.userId())),
                mcp -> assertThat(mcp).contains(entry("tool", "mcp"), entry("repos", ""), entry("org", null),
                        entry("sealed_access_token", TOKEN.value()), entry("sealed_webhook_secret", null),
                        entry("mcp_server_url", "https://mcp.example/sse"), entry("mcp_auth_type", "token"),
                        entry("mcp_transport", "sse"), entry("base_url", null)));
    }

    @Test
    void aReplayBringsBackNeitherADeletedConnectionNorAnOldSecret() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope created = ws.created("Replay");
        EventEnvelope firstUpsert = ws.stateChange(c -> new ToolConnectionUpserted(codeHost(WEBHOOK_SECRET)));
        EventEnvelope mcpUpsert = ws.stateChange(c -> new ToolConnectionUpserted(MCP));
        EventEnvelope rotation = ws.stateChange(c -> new WebhookSecretRotated(codeHost(ROTATED_SECRET)));
        EventEnvelope mcpDelete = ws.stateChange(c -> new ToolConnectionDeleted(Tool.MCP));
        publisher.publish(created, firstUpsert, mcpUpsert, rotation, mcpDelete);
        eventually().until(() -> jdbc.queryForObject(
                "select workspace_version from workspaces where id = ?::uuid", Long.class, ws.workspaceId), v -> v == ws.version());

        publisher.publish(firstUpsert, mcpUpsert);
        // a later change of the same workspace, behind the replayed events in its partition
        EventEnvelope marker = ws.stateChange(c -> new ToolConnectionUpserted(ISSUE_TRACKER));
        publisher.publish(marker);
        eventually().until(() -> jdbc.queryForObject(
                "select count(*) from tool_connections where workspace_id = ?::uuid and tool = 'issue_tracker'",
                Long.class, ws.workspaceId), count -> count == 1);

        assertThat(jdbc.queryForList("select tool from tool_connections where workspace_id = ?::uuid order by tool",
                String.class, ws.workspaceId)).containsExactly("code_host", "issue_tracker");
        assertThat(jdbc.queryForObject("select sealed_webhook_secret from tool_connections where workspace_id = ?::uuid"
                + " and tool = 'code_host'", String.class, ws.workspaceId)).isEqualTo(ROTATED_SECRET.value());
    }

    @Test
    void aPlainSecretIsRefusedByTheTableAndTheEventSkipped() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Plain"),
                ws.stateChange(c -> new ToolConnectionUpserted(new ToolConnection(Tool.DOCS, ToolConnectionConfig.none(),
                        SealedSecret.of("plain-token-that-must-not-be-stored"), null, null, null, null, null))));
        EventEnvelope marker = ws.stateChange(c -> new ToolConnectionUpserted(MCP));
        publisher.publish(marker);
        eventually().until(() -> jdbc.queryForObject(
                "select count(*) from tool_connections where workspace_id = ?::uuid and tool = 'mcp'", Long.class,
                ws.workspaceId), count -> count == 1);

        assertThat(jdbc.queryForObject("select count(*) from tool_connections where workspace_id = ?::uuid and tool = 'docs'",
                Long.class, ws.workspaceId)).isZero();
    }

    @Test
    void classificationRulesAreStoredInOrderAndReplacedByTheNextUpsert() {
        WorkspaceEvents ws = new WorkspaceEvents();
        ToolConnectionConfig withRules = new ToolConnectionConfig(List.of(), null, null, null, List.of(
                new ClassificationRule("POST", "/channels/*/messages", "message.send", RiskLevel.LOW),
                new ClassificationRule("*", "/admin/**", "admin.call", RiskLevel.CRITICAL)));
        publisher.publish(ws.created("Rules"),
                ws.stateChange(c -> new ToolConnectionUpserted(new ToolConnection(Tool.CHAT, withRules, TOKEN, null,
                        null, null, null, "https://chat.example/api"))),
                ws.stateChange(c -> new ToolConnectionUpserted(new ToolConnection(Tool.DOCS, ToolConnectionConfig.none(),
                        TOKEN, null, null, null, null, "https://docs.example/api"))));
        eventually().until(() -> jdbc.queryForObject(
                "select workspace_version from workspaces where id = ?::uuid", Long.class, ws.workspaceId), v -> v == ws.version());

        assertThat(jdbc.queryForObject("select rules::text from tool_connections where workspace_id = ?::uuid and tool = 'chat'",
                String.class, ws.workspaceId)).isEqualTo("""
                [{"path": "/channels/*/messages", "risk": "low", "action": "message.send", "method": "POST"}, \
                {"path": "/admin/**", "risk": "critical", "action": "admin.call", "method": "*"}]""");
        assertThat(jdbc.queryForObject("select rules::text from tool_connections where workspace_id = ?::uuid and tool = 'docs'",
                String.class, ws.workspaceId)).isEqualTo("[]");

        publisher.publish(ws.stateChange(c -> new ToolConnectionUpserted(new ToolConnection(Tool.CHAT,
                ToolConnectionConfig.none(), TOKEN, null, null, null, null, "https://chat.example/api"))));
        eventually().until(() -> jdbc.queryForObject("select rules::text from tool_connections where workspace_id = ?::uuid"
                + " and tool = 'chat'", String.class, ws.workspaceId), "[]"::equals);
    }
}
