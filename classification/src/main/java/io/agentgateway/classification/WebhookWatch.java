package io.agentgateway.classification;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Whether a tool connection watches the repository, organization or team a webhook payload names
 * (spec 6 rules 1 and 2), by the rule of the sending tool's profile ({@link ToolProfile.Webhooks#watch()}): the code
 * host by {@code repository.full_name} in {@code config.repos} or {@code organization.login} = {@code config.org}
 * (both case-insensitive, as the code host treats names); the issue tracker by {@code organizationId} =
 * {@code config.organization_id}, narrowed by {@code data.teamId} = {@code config.team_id} when the connection
 * names a team (a connection that names only a team matches on the team). The ingress's candidate query in SQL
 * follows the same rules; the ingress and the decision stream both check a connection with this before trusting
 * a delivery to it.
 */
public final class WebhookWatch {
    private WebhookWatch() {}

    /** One sender's rule, for a config and a payload object. */
    @FunctionalInterface
    public interface Rule {
        boolean watches(ToolConnectionConfig config, JsonNode payload);
    }

    public static boolean watches(Tool tool, ToolConnectionConfig config, JsonNode payload) {
        if (tool == null || config == null || payload == null || !payload.isObject()) {
            return false;
        }
        return ToolProfiles.of(tool).webhooks().map(webhooks -> webhooks.watch().watches(config, payload)).orElse(false);
    }

    static boolean codeHost(ToolConnectionConfig config, JsonNode payload) {
        String repository = text(payload, "repository", "full_name");
        String organization = text(payload, "organization", "login");
        boolean byRepository = repository != null && config.repos() != null
                && config.repos().stream().anyMatch(repo -> repo != null && repo.equalsIgnoreCase(repository));
        boolean byOrganization = organization != null && config.org() != null
                && config.org().toLowerCase(Locale.ROOT).equals(organization.toLowerCase(Locale.ROOT));
        return byRepository || byOrganization;
    }

    static boolean issueTracker(ToolConnectionConfig config, JsonNode payload) {
        String organizationId = text(payload, "organizationId");
        String teamId = text(payload, "data", "teamId");
        if (config.organizationId() != null) {
            return config.organizationId().equals(organizationId)
                    && (config.teamId() == null || config.teamId().equals(teamId));
        }
        return config.teamId() != null && config.teamId().equals(teamId);
    }

    /** A non-blank text field of nested objects, or null. */
    public static String text(JsonNode node, String... path) {
        JsonNode current = node;
        for (String field : path) {
            if (current == null || !current.isObject()) {
                return null;
            }
            current = current.get(field);
        }
        return current != null && current.isString() && !current.asString().isBlank() ? current.asString() : null;
    }
}
