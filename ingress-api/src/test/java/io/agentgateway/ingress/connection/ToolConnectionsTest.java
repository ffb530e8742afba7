package io.agentgateway.ingress.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.ingress.config.SecretsProperties;
import io.agentgateway.ingress.secret.ConfiguredSecretBox;
import io.agentgateway.ingress.support.ReadModelRows;
import io.agentgateway.ingress.support.RunningIngress;
import io.agentgateway.ingress.support.TestDatabase;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The read side the proxy, the MCP gate and the webhook verifier use: a real read-model database, real sealing. */
class ToolConnectionsTest {
    private static final String OTHER_KEY = "OTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTBmZWRjYmE=";
    private static final String TOKEN = "ghp_plainAccessTokenOfTheCodeHost";
    private static final String WEBHOOK_SECRET = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private static JdbcClient jdbc;
    private static ReadModelRows rows;
    private final SecretBox box = SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY);
    private UUID workspace;

    @BeforeAll
    static void database() {
        TestDatabase database = TestDatabase.create();
        jdbc = JdbcClient.create(new DriverManagerDataSource(database.url, database.username, database.password));
        rows = new ReadModelRows(jdbc);
    }

    @BeforeEach
    void newWorkspace() {
        workspace = rows.workspace("connections");
    }

    private ToolConnections withKey(String key) {
        return new ToolConnections(new ToolConnectionRepository(jdbc), new ConfiguredSecretBox(new SecretsProperties(key)));
    }

    @Test
    void opensTheSecretsOfTheWorkspacesConnection() {
        rows.toolConnection(workspace, "code_host", new String[] {"acme/api", "acme/web"}, "acme", box.seal(TOKEN),
                box.seal(WEBHOOK_SECRET), null, null, null, "https://code.example/api/v3", 7);

        OpenedToolConnection connection = withKey(RunningIngress.SECRETS_KEY).find(workspace, Tool.CODE_HOST).orElseThrow();

        assertThat(connection.tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(connection.config()).isEqualTo(new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", null, null));
        assertThat(connection.accessTokenIfSet().orElseThrow().reveal()).isEqualTo(TOKEN);
        assertThat(connection.webhookSecretIfSet().orElseThrow().matches(WEBHOOK_SECRET)).isTrue();
        assertThat(connection.baseUrl()).isEqualTo("https://code.example/api/v3");
        assertThat(connection.paused()).isFalse();
        assertThat(connection.version()).isEqualTo(7);
        assertThat(connection.toString()).as("a log line of the whole connection").doesNotContain(TOKEN).doesNotContain(WEBHOOK_SECRET);
    }

    @Test
    void anMcpConnectionWithoutSecretsAndPausedByTheKillSwitch() {
        rows.toolConnection(workspace, "mcp", new String[0], null, null, null, "https://mcp.example/sse", "token", "sse", null, 3);
        rows.workspaceState(workspace, false, "{mcp}", "{}", null);

        OpenedToolConnection mcp = withKey(RunningIngress.SECRETS_KEY).find(workspace, Tool.MCP).orElseThrow();

        assertThat(mcp.accessTokenIfSet()).isEmpty();
        assertThat(mcp.webhookSecretIfSet()).isEmpty();
        assertThat(mcp.mcpServerUrl()).isEqualTo("https://mcp.example/sse");
        assertThat(mcp.mcpAuthType()).isEqualTo(McpAuthType.TOKEN);
        assertThat(mcp.mcpTransport()).isEqualTo(McpTransport.SSE);
        assertThat(mcp.paused()).isTrue();
    }

    @Test
    void noConnectionIsEmptyAndOtherWorkspacesAreInvisible() {
        UUID other = rows.workspace("other");
        rows.toolConnection(other, "docs", new String[0], null, box.seal(TOKEN), null, null, null, null, null, 1);

        assertThat(withKey(RunningIngress.SECRETS_KEY).find(workspace, Tool.DOCS)).isEmpty();
        assertThat(withKey(RunningIngress.SECRETS_KEY).find(other, Tool.CHAT)).isEmpty();
        assertThat(withKey(RunningIngress.SECRETS_KEY).find(other, Tool.DOCS)).isPresent();
    }

    @Test
    void aSecretSealedWithAnotherKeyFailsClosedWithoutShowingIt() {
        String sealed = box.seal(TOKEN);
        rows.toolConnection(workspace, "internal_api", new String[0], null, sealed, null, null, null, null, null, 1);

        assertThatThrownBy(() -> withKey(OTHER_KEY).find(workspace, Tool.INTERNAL_API))
                .isInstanceOf(UnreadableSecretException.class)
                .hasMessage("the stored access token of internal_api in workspace " + workspace
                        + " cannot be opened with gateway.secrets.key")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(sealed).doesNotContain(TOKEN));
    }

    @Test
    void withoutAKeyAStoredSecretCannotBeUsed() {
        rows.toolConnection(workspace, "code_host", new String[0], null, null, box.seal(WEBHOOK_SECRET), null, null, null, null, 1);

        assertThatThrownBy(() -> withKey(null).find(workspace, Tool.CODE_HOST))
                .isInstanceOf(UnreadableSecretException.class)
                .hasMessage("the stored webhook secret of code_host in workspace " + workspace
                        + " cannot be opened: gateway.secrets.key is not set");
    }
}
