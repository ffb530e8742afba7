package io.agentgateway.classification;

import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.ToolConnection;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The fields of a tool connection (spec section 2) that belong to some tools only, under the names the admin API
 * uses, in the order the decision core checks them. A tool's profile says which it takes
 * ({@link ToolProfile#connectionFields()}); on any other tool's connection such a field is refused, so an admin who
 * put a repository list on the issue tracker hears that it would never match anything. The fields every tool
 * takes ({@code config.access_token}, {@code base_url}) are not listed; {@code config.rules} and
 * {@code webhook_secret} follow from the profile's classification and webhooks.
 */
public enum ConnectionField {
    REPOS("config.repos", connection -> !connection.config().repos().isEmpty()),
    ORG("config.org", connection -> connection.config().org() != null),
    ORGANIZATION_ID("config.organization_id", connection -> connection.config().organizationId() != null),
    TEAM_ID("config.team_id", connection -> connection.config().teamId() != null),
    MCP_SERVER_URL("mcp_server_url", connection -> connection.mcpServerUrl() != null),
    MCP_AUTH_TYPE("mcp_auth_type", connection -> connection.mcpAuthType() != null),
    MCP_TRANSPORT("mcp_transport", connection -> connection.mcpTransport() != null,
            ": " + Arrays.stream(McpTransport.values()).map(McpTransport::wire).collect(Collectors.joining(" or ")));

    private final String fieldName;
    private final Predicate<ToolConnection> present;
    private final String choices;

    ConnectionField(String fieldName, Predicate<ToolConnection> present) {
        this(fieldName, present, "");
    }

    ConnectionField(String fieldName, Predicate<ToolConnection> present, String choices) {
        this.fieldName = fieldName;
        this.present = present;
        this.choices = choices;
    }

    /** As the admin API and its error texts name it ({@code config.repos}, {@code mcp_server_url}). */
    public String fieldName() {
        return fieldName;
    }

    public boolean isSet(ToolConnection connection) {
        return present.test(connection);
    }

    /** The text for a connection of {@code tool} that lacks this required field. */
    public String missing(String toolWireName) {
        return fieldName + " is required for the " + toolWireName + " tool" + choices;
    }
}
