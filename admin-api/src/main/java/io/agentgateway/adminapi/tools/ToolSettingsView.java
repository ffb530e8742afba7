package io.agentgateway.adminapi.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.agentgateway.actiongate.connection.StoredToolConnection;
import io.agentgateway.httpedge.web.WebhookSetup;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import java.time.Instant;
import java.util.List;

/**
 * One tool as the tool settings show it, connected or not: the fields of spec section 2 under their
 * spec names, whether each write-only secret is set (never the secret), the pause flag of the kill
 * switch, and for the tools that send webhooks the values to enter upstream (payload URL, content type).
 */
public record ToolSettingsView(
        String tool,
        boolean connected,
        boolean paused,
        ConfigView config,
        boolean accessTokenSet,
        boolean webhookSecretSet,
        @JsonProperty("mcp_server_url") String mcpServerUrl,
        @JsonProperty("mcp_auth_type") String mcpAuthType,
        @JsonProperty("mcp_transport") String mcpTransport,
        @JsonProperty("base_url") String baseUrl,
        WebhookSetup webhook,
        Long version,
        Instant updatedAt,
        String updatedBy) {

    public record ConfigView(
            List<String> repos,
            String org,
            @JsonProperty("organization_id") String organizationId,
            @JsonProperty("team_id") String teamId,
            List<RuleView> rules) {

        static ConfigView of(ToolConnectionConfig config) {
            return new ConfigView(config.repos() == null ? List.of() : config.repos(), config.org(),
                    config.organizationId(), config.teamId(), config.rules().stream().map(RuleView::of).toList());
        }
    }

    /** A classification rule as the admin wrote it (risk by its wire name). */
    public record RuleView(String method, String path, String action, String risk) {

        static RuleView of(ClassificationRule rule) {
            return new RuleView(rule.method(), rule.path(), rule.action(), rule.risk() == null ? null : rule.risk().wire());
        }
    }

    static ToolSettingsView notConnected(Tool tool, boolean paused, String baseUrl) {
        return new ToolSettingsView(tool.wire(), false, paused, ConfigView.of(ToolConnectionConfig.none()), false, false,
                null, null, null, null, WebhookSetup.of(tool, baseUrl).orElse(null), null, null, null);
    }

    static ToolSettingsView of(StoredToolConnection connection, String baseUrl) {
        return new ToolSettingsView(connection.tool().wire(), true, connection.paused(), ConfigView.of(connection.config()),
                connection.accessToken() != null, connection.webhookSecret() != null, connection.mcpServerUrl(),
                connection.mcpAuthType() == null ? null : connection.mcpAuthType().wire(),
                connection.mcpTransport() == null ? null : connection.mcpTransport().wire(), connection.baseUrl(),
                WebhookSetup.of(connection.tool(), baseUrl).orElse(null), connection.version(), connection.updatedAt(),
                connection.updatedBy());
    }
}
