package io.agentgateway.adminapi.tools;

import static io.agentgateway.httpedge.web.JsonFields.isAbsent;
import static io.agentgateway.httpedge.web.JsonFields.onlyKnownFields;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the body of {@code PUT .../tools/{tool}} with the field names of spec section 2
 * ({@code config.access_token}, {@code config.repos}, {@code mcp_server_url}, ...). Only the shape is
 * checked here; what a valid connection is (owner/repo, URLs, which field belongs to which tool) is
 * the decision stream's to say, so every replica and every replay judges the same way.
 *
 * <p>Secrets are write-only: absent keeps the stored one, {@code null} removes it, a string replaces it.
 */
final class ToolConnectionBodies {
    static final String PAUSED_READ_ONLY = "paused is read-only: use the kill switch (pause_tool / resume_tool)";
    static final int MAX_SECRET_LENGTH = 8192;
    private static final Set<String> FIELDS = Set.of("tool", "config", "webhook_secret", "mcp_server_url", "mcp_auth_type",
            "mcp_transport", "base_url");
    private static final Set<String> CONFIG_FIELDS = Set.of("access_token", "repos", "org", "organization_id", "team_id", "rules");

    private ToolConnectionBodies() {}

    static ToolConnectionRequest parse(ObjectNode body, Tool tool) {
        if (body.has("paused")) {
            throw ApiException.badRequest(PAUSED_READ_ONLY);
        }
        onlyKnownFields(body, FIELDS, "");
        if (!isAbsent(body, "tool")) {
            JsonNode given = body.get("tool");
            if (!given.isString() || !given.stringValue().equals(tool.wire())) {
                throw ApiException.badField("tool", "tool must equal the tool of the path");
            }
        }
        ObjectNode config = config(body.get("config"));
        ToolConnectionConfig parsedConfig = new ToolConnectionConfig(
                JsonFields.stringList(config, "repos", "config.repos"),
                string(config, "org", "config.org"),
                string(config, "organization_id", "config.organization_id"),
                string(config, "team_id", "config.team_id"),
                rules(config, tool));
        return new ToolConnectionRequest(tool, parsedConfig,
                string(body, "mcp_server_url", "mcp_server_url"),
                JsonFields.optionalEnum(body, "mcp_auth_type", McpAuthType::parse,
                        "mcp_auth_type must be one of: " + WireNames.of(McpAuthType.values())),
                JsonFields.optionalEnum(body, "mcp_transport", McpTransport::parse,
                        "mcp_transport must be one of: " + WireNames.of(McpTransport.values())),
                string(body, "base_url", "base_url"),
                secret(config, "access_token", "config.access_token"),
                secret(body, "webhook_secret", "webhook_secret"));
    }

    private static ObjectNode config(JsonNode config) {
        if (config == null || config.isNull()) {
            return IngressJson.REQUESTS.createObjectNode();
        }
        if (!(config instanceof ObjectNode object)) {
            throw ApiException.badField("config", "config must be an object");
        }
        onlyKnownFields(object, CONFIG_FIELDS, "config.");
        return object;
    }

    /** Every rule problem is about {@code config.rules} (its text names the rule). */
    private static List<ClassificationRule> rules(ObjectNode config, Tool tool) {
        try {
            return ClassificationRuleBodies.parse(config.get("rules"), tool);
        } catch (ApiException e) {
            throw e.field() == null && e.status().value() == 400 ? ApiException.badField("config.rules", e.getMessage()) : e;
        }
    }

    private static String string(JsonNode container, String field, String name) {
        JsonNode value = container.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw ApiException.badField(name, name + " must be a string");
        }
        return value.stringValue();
    }

    private static SecretInput secret(JsonNode container, String field, String name) {
        if (!container.has(field)) {
            return SecretInput.KEEP;
        }
        JsonNode value = container.get(field);
        if (value.isNull()) {
            return SecretInput.CLEAR;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw ApiException.badField(name, name + " must be a non-empty string, or null to remove it");
        }
        String text = value.stringValue();
        if (text.length() > MAX_SECRET_LENGTH) {
            throw ApiException.badField(name, name + " must be at most " + MAX_SECRET_LENGTH + " characters");
        }
        if (!text.strip().equals(text)) {
            // a pasted token with a trailing newline would fail upstream in a way that is hard to see
            throw ApiException.badField(name, name + " must not start or end with whitespace");
        }
        return SecretInput.set(PlainSecret.of(text));
    }
}
