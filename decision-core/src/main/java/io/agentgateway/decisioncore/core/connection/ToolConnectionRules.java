package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.classification.ClassificationRuleChecks;
import io.agentgateway.classification.ConnectionField;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a stored tool connection must look like (spec section 2). The texts name the fields as the admin
 * API does ({@code config.repos}, {@code mcp_server_url}, ...), since the admin reads them. Each
 * tool-specific field belongs to the tools whose profile takes it ({@link ConnectionField}): a repository list
 * on the issue tracker would never be used to match a webhook, and an admin who put it there should hear so
 * rather than wonder why nothing matches.
 */
final class ToolConnectionRules {
    /** A code-host login: letters, digits and inner hyphens. */
    private static final String LOGIN = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?";
    private static final Pattern ORG = Pattern.compile(LOGIN);
    /** {@code owner/repo}; a repository name is letters, digits, '.', '_' and '-', and not "." or "..". */
    private static final Pattern REPO = Pattern.compile(LOGIN + "/(?!\\.{1,2}$)[A-Za-z0-9._-]{1,100}");
    private static final int MAX_ID_LENGTH = 200;
    private static final int MAX_URL_LENGTH = 2048;
    /** The tools that send webhooks, as the texts about webhook secrets name them. */
    static final String WEBHOOK_TOOLS = ToolProfiles.listed(ToolProfile::sendsWebhooks, "and")
            + " tools (the tools that send webhooks)";

    private ToolConnectionRules() {}

    /** @return what is wrong with the connection, or empty when it may be stored */
    static Optional<String> problem(ToolConnection connection) {
        Tool tool = connection.tool();
        ToolConnectionConfig config = connection.config();
        return firstOf(
                fieldOfAnotherTool(connection),
                webhookSecretOnlyForWebhookTools(connection),
                repos(config.repos()),
                config.org() == null || ORG.matcher(config.org()).matches()
                        ? Optional.empty() : Optional.of("config.org must be an organization login (letters, digits, hyphens)"),
                identifier(config.organizationId(), "config.organization_id"),
                identifier(config.teamId(), "config.team_id"),
                required(connection),
                webUrl(connection.baseUrl(), "base_url"),
                ClassificationRuleChecks.problem(tool, config.rules()));
    }

    /** The first field, in {@link ConnectionField}'s order, that is set but belongs to other tools only. */
    private static Optional<String> fieldOfAnotherTool(ToolConnection connection) {
        ToolProfile profile = ToolProfiles.of(connection.tool());
        for (ConnectionField field : ConnectionField.values()) {
            if (field.isSet(connection) && !profile.takes(field)) {
                boolean one = ToolProfiles.where(owner -> owner.takes(field)).size() == 1;
                return Optional.of(field.fieldName() + " is only for the " + ToolProfiles.listed(owner -> owner.takes(field), "and")
                        + (one ? " tool" : " tools"));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> webhookSecretOnlyForWebhookTools(ToolConnection connection) {
        if (connection.webhookSecret() == null || ToolProfiles.of(connection.tool()).sendsWebhooks()) {
            return Optional.empty();
        }
        return Optional.of("webhook_secret is only for the " + WEBHOOK_TOOLS);
    }

    private static Optional<String> repos(List<String> repos) {
        Set<String> seen = new HashSet<>();
        for (String repo : repos) {
            if (repo == null || !REPO.matcher(repo).matches()) {
                return Optional.of("config.repos entries must have the form owner/repo");
            }
            // the code host treats names case-insensitively, so "Acme/API" and "acme/api" are one repository
            if (!seen.add(repo.toLowerCase(Locale.ROOT))) {
                return Optional.of("config.repos lists " + repo + " twice");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> identifier(String value, String field) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.isBlank() || value.length() > MAX_ID_LENGTH || !value.strip().equals(value)) {
            return Optional.of(field + " must be a non-empty id without surrounding spaces (at most "
                    + MAX_ID_LENGTH + " characters)");
        }
        return Optional.empty();
    }

    /** The fields the tool's profile requires, then the MCP server's URL (set only where the profile takes it). */
    private static Optional<String> required(ToolConnection connection) {
        for (ConnectionField field : ToolProfiles.of(connection.tool()).requiredConnectionFields()) {
            if (!field.isSet(connection)) {
                return Optional.of(field.missing(connection.tool().wire()));
            }
        }
        return webUrl(connection.mcpServerUrl(), "mcp_server_url");
    }

    /**
     * An absolute http(s) URL with a host. Credentials in the URL are refused: this field is not
     * secret (it is shown and stored in clear), so a token must go into the access token instead.
     */
    static Optional<String> webUrl(String text, String field) {
        if (text == null) {
            return Optional.empty();
        }
        String message = field + " must be an absolute http or https URL";
        if (text.length() > MAX_URL_LENGTH) {
            return Optional.of(message + " of at most " + MAX_URL_LENGTH + " characters");
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getHost().isBlank()) {
                return Optional.of(message);
            }
            if (uri.getRawUserInfo() != null) {
                return Optional.of(field + " must not carry credentials: put the token into config.access_token");
            }
            if (uri.getRawFragment() != null) {
                return Optional.of(field + " must not have a fragment (#...)");
            }
            return Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.of(message);
        }
    }

    @SafeVarargs
    private static Optional<String> firstOf(Optional<String>... checks) {
        for (Optional<String> check : checks) {
            if (check.isPresent()) {
                return check;
            }
        }
        return Optional.empty();
    }
}
