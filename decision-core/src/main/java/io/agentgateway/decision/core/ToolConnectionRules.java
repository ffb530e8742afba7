package io.agentgateway.decision.core;

import io.agentgateway.schemas.ClassificationRuleChecks;
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
 * API does ({@code config.repos}, {@code mcp_server_url}, ...), since the admin reads them. Each field
 * belongs to one tool: a repository list on the issue tracker would never be used to match a webhook,
 * and an admin who put it there should hear so rather than wonder why nothing matches.
 */
final class ToolConnectionRules {
    /** A code-host login: letters, digits and inner hyphens. */
    private static final String LOGIN = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?";
    private static final Pattern ORG = Pattern.compile(LOGIN);
    /** {@code owner/repo}; a repository name is letters, digits, '.', '_' and '-', and not "." or "..". */
    private static final Pattern REPO = Pattern.compile(LOGIN + "/(?!\\.{1,2}$)[A-Za-z0-9._-]{1,100}");
    private static final int MAX_ID_LENGTH = 200;
    private static final int MAX_URL_LENGTH = 2048;
    static final Set<Tool> WEBHOOK_TOOLS = Set.of(Tool.CODE_HOST, Tool.ISSUE_TRACKER);

    private ToolConnectionRules() {}

    /** @return what is wrong with the connection, or empty when it may be stored */
    static Optional<String> problem(ToolConnection connection) {
        Tool tool = connection.tool();
        ToolConnectionConfig config = connection.config();
        return firstOf(
                onlyFor(tool, Tool.CODE_HOST, !config.repos().isEmpty(), "config.repos"),
                onlyFor(tool, Tool.CODE_HOST, config.org() != null, "config.org"),
                onlyFor(tool, Tool.ISSUE_TRACKER, config.organizationId() != null, "config.organization_id"),
                onlyFor(tool, Tool.ISSUE_TRACKER, config.teamId() != null, "config.team_id"),
                onlyFor(tool, Tool.MCP, connection.mcpServerUrl() != null, "mcp_server_url"),
                onlyFor(tool, Tool.MCP, connection.mcpAuthType() != null, "mcp_auth_type"),
                onlyFor(tool, Tool.MCP, connection.mcpTransport() != null, "mcp_transport"),
                webhookSecretOnlyForWebhookTools(connection),
                repos(config.repos()),
                config.org() == null || ORG.matcher(config.org()).matches()
                        ? Optional.empty() : Optional.of("config.org must be an organization login (letters, digits, hyphens)"),
                identifier(config.organizationId(), "config.organization_id"),
                identifier(config.teamId(), "config.team_id"),
                mcp(connection),
                webUrl(connection.baseUrl(), "base_url"),
                ClassificationRuleChecks.problem(tool, config.rules()));
    }

    private static Optional<String> onlyFor(Tool tool, Tool owner, boolean present, String field) {
        if (!present || tool == owner) {
            return Optional.empty();
        }
        return Optional.of(field + " is only for the " + owner.wire() + " tool");
    }

    private static Optional<String> webhookSecretOnlyForWebhookTools(ToolConnection connection) {
        if (connection.webhookSecret() == null || WEBHOOK_TOOLS.contains(connection.tool())) {
            return Optional.empty();
        }
        return Optional.of("webhook_secret is only for the code_host and issue_tracker tools (the tools that send webhooks)");
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

    private static Optional<String> mcp(ToolConnection connection) {
        if (connection.tool() != Tool.MCP) {
            return Optional.empty();
        }
        if (connection.mcpServerUrl() == null) {
            return Optional.of("mcp_server_url is required for the mcp tool");
        }
        if (connection.mcpTransport() == null) {
            return Optional.of("mcp_transport is required for the mcp tool: sse or http");
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
