package io.agentgateway.httpedge.web;

import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The longest string each field of a JSON request body may hold, checked once for every body the
 * {@link JsonBodyReader} reads, so that no endpoint takes (and echoes into reasons, audit rows and
 * notifications) a 100 KB name. A field is known by its own name, wherever it sits (an array's
 * elements by the array's name); what is not named here gets {@link #DEFAULT_MAX_CHARS}. The
 * evaluation {@code payload} is free-form and exempt: the audit log keeps an excerpt of it.
 */
public final class BodyStringLimits {
    /** Names, ids, actions, emails, roles, scopes, tools, policy match entries, repositories. */
    public static final int IDENTIFIER_MAX_CHARS = 256;
    /** Descriptions and review reasons. */
    public static final int TEXT_MAX_CHARS = 2000;
    /** URLs. */
    public static final int URL_MAX_CHARS = 2048;
    /** Every other string (tokens and secrets, for instance). */
    public static final int DEFAULT_MAX_CHARS = 8192;

    private static final Set<String> FREE_FORM = Set.of("payload");
    private static final Map<String, Integer> BY_FIELD = Map.ofEntries(
            Map.entry("name", IDENTIFIER_MAX_CHARS), Map.entry("action", IDENTIFIER_MAX_CHARS),
            Map.entry("agentId", IDENTIFIER_MAX_CHARS), Map.entry("agentName", IDENTIFIER_MAX_CHARS),
            Map.entry("resourceType", IDENTIFIER_MAX_CHARS), Map.entry("resourceId", IDENTIFIER_MAX_CHARS),
            Map.entry("requestedBy", IDENTIFIER_MAX_CHARS), Map.entry("tool", IDENTIFIER_MAX_CHARS),
            Map.entry("riskLevel", IDENTIFIER_MAX_CHARS), Map.entry("risk", IDENTIFIER_MAX_CHARS),
            Map.entry("decision", IDENTIFIER_MAX_CHARS), Map.entry("role", IDENTIFIER_MAX_CHARS),
            Map.entry("email", IDENTIFIER_MAX_CHARS), Map.entry("workspaceId", IDENTIFIER_MAX_CHARS),
            Map.entry("id", IDENTIFIER_MAX_CHARS), Map.entry("scopes", IDENTIFIER_MAX_CHARS),
            Map.entry("method", IDENTIFIER_MAX_CHARS), Map.entry("org", IDENTIFIER_MAX_CHARS),
            Map.entry("organization_id", IDENTIFIER_MAX_CHARS), Map.entry("team_id", IDENTIFIER_MAX_CHARS),
            Map.entry("repos", IDENTIFIER_MAX_CHARS), Map.entry("tools", IDENTIFIER_MAX_CHARS),
            Map.entry("actions", IDENTIFIER_MAX_CHARS), Map.entry("riskLevels", IDENTIFIER_MAX_CHARS),
            Map.entry("agentIds", IDENTIFIER_MAX_CHARS), Map.entry("resourceTypes", IDENTIFIER_MAX_CHARS),
            Map.entry("resourceIds", IDENTIFIER_MAX_CHARS), Map.entry("sources", IDENTIFIER_MAX_CHARS),
            Map.entry("mcp_auth_type", IDENTIFIER_MAX_CHARS), Map.entry("mcp_transport", IDENTIFIER_MAX_CHARS),
            Map.entry("expiresAt", IDENTIFIER_MAX_CHARS), Map.entry("from", IDENTIFIER_MAX_CHARS),
            Map.entry("to", IDENTIFIER_MAX_CHARS), Map.entry("approvalTtl", IDENTIFIER_MAX_CHARS),
            Map.entry("description", TEXT_MAX_CHARS), Map.entry("reason", TEXT_MAX_CHARS),
            Map.entry("chatWebhookUrl", URL_MAX_CHARS), Map.entry("mcp_server_url", URL_MAX_CHARS),
            Map.entry("base_url", URL_MAX_CHARS), Map.entry("path", URL_MAX_CHARS));

    private BodyStringLimits() {}

    /** @throws ApiException 400 {@code "<field path> must be a string of at most <n> characters"} for the first string over its limit */
    public static void check(JsonNode body) {
        visit(body, "", null);
    }

    /** The limit of a field of this name. */
    public static int limitOf(String field) {
        return field == null ? DEFAULT_MAX_CHARS : BY_FIELD.getOrDefault(field, DEFAULT_MAX_CHARS);
    }

    private static void visit(JsonNode node, String path, String field) {
        if (node.isString()) {
            int limit = limitOf(field);
            if (node.stringValue().length() > limit) {
                throw ApiException.badRequest((path.isEmpty() ? "the body" : path) + " must be a string of at most " + limit + " characters");
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                String name = member.getKey();
                if (name.length() > IDENTIFIER_MAX_CHARS) {
                    throw ApiException.badRequest("field names must be at most " + IDENTIFIER_MAX_CHARS + " characters");
                }
                String childPath = path.isEmpty() ? name : path + "." + name;
                if (path.isEmpty() && FREE_FORM.contains(name)) {
                    continue;
                }
                visit(member.getValue(), childPath, name);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                visit(node.get(i), path + "[" + i + "]", field);
            }
        }
    }
}
