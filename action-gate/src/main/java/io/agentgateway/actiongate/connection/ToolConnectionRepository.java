package io.agentgateway.actiongate.connection;

import io.agentgateway.httpedge.web.SqlRows;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.SealedSecret;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the projector's {@code tool_connections}, with {@code paused} taken from the workspace's
 * paused tools (the kill switch's) at query time rather than copied. Blocking: call off the event loop.
 */
@Repository
public class ToolConnectionRepository {
    private static final String COLUMNS = """
            c.tool, c.repos, c.org, c.organization_id, c.team_id, c.sealed_access_token, c.sealed_webhook_secret,
            c.mcp_server_url, c.mcp_auth_type, c.mcp_transport, c.base_url, c.rules::text as rules, c.version, c.updated_at, c.updated_by,
            c.tool = any(w.paused_tools) as paused
            """;

    private final JdbcClient jdbc;

    ToolConnectionRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<StoredToolConnection> find(UUID workspaceId, Tool tool) {
        return jdbc.sql("select " + COLUMNS + """
                          from tool_connections c join workspaces w on w.id = c.workspace_id
                         where c.workspace_id = :workspace and c.tool = :tool
                        """)
                .param("workspace", workspaceId)
                .param("tool", tool.wire())
                .query((rs, row) -> read(rs))
                .optional();
    }

    /** Every connection of the workspace, by tool. */
    public Map<Tool, StoredToolConnection> list(UUID workspaceId) {
        Map<Tool, StoredToolConnection> connections = new EnumMap<>(Tool.class);
        jdbc.sql("select " + COLUMNS + """
                          from tool_connections c join workspaces w on w.id = c.workspace_id
                         where c.workspace_id = :workspace
                        """)
                .param("workspace", workspaceId)
                .query((rs, row) -> read(rs))
                .list()
                .forEach(connection -> connections.put(connection.tool(), connection));
        return connections;
    }

    /** The tools the kill switch has paused, or empty when the workspace is unknown. */
    public Optional<Set<Tool>> pausedTools(UUID workspaceId) {
        return jdbc.sql("select paused_tools from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> {
                    Set<Tool> paused = EnumSet.noneOf(Tool.class);
                    SqlRows.textArray(rs, "paused_tools").forEach(name -> Tool.parse(name).ifPresent(paused::add));
                    return paused;
                })
                .optional();
    }

    private static StoredToolConnection read(ResultSet rs) throws SQLException {
        Tool tool = Tool.parse(rs.getString("tool"))
                .orElseThrow(() -> new IllegalStateException("tool_connections holds an unknown tool"));
        ToolConnectionConfig config = new ToolConnectionConfig(SqlRows.textArray(rs, "repos"), rs.getString("org"),
                rs.getString("organization_id"), rs.getString("team_id"), rules(rs.getString("rules")));
        return new StoredToolConnection(tool, config, sealed(rs, "sealed_access_token"), sealed(rs, "sealed_webhook_secret"),
                rs.getString("mcp_server_url"), McpAuthType.parse(rs.getString("mcp_auth_type")).orElse(null),
                McpTransport.parse(rs.getString("mcp_transport")).orElse(null), rs.getString("base_url"),
                rs.getBoolean("paused"), rs.getLong("version"), SqlRows.instant(rs, "updated_at"), rs.getString("updated_by"));
    }

    /** The projector wrote the rules from the event, so they read back with the wire format's mapper. */
    private static List<ClassificationRule> rules(String json) {
        return json == null ? List.of() : List.of(GatewayJson.MAPPER.readValue(json, ClassificationRule[].class));
    }

    private static SealedSecret sealed(ResultSet rs, String column) throws SQLException {
        String value = rs.getString(column);
        return value == null ? null : SealedSecret.of(value);
    }
}
