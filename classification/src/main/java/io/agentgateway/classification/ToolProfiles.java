package io.agentgateway.classification;

import io.agentgateway.classification.ToolProfile.Credential;
import io.agentgateway.classification.ToolProfile.ErrorDialect;
import io.agentgateway.classification.ToolProfile.HeaderNames;
import io.agentgateway.classification.ToolProfile.KeyForm;
import io.agentgateway.classification.ToolProfile.OAuth;
import io.agentgateway.classification.ToolProfile.Webhooks;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The profile of every tool (spec section 2), one row each: the only place that says what is particular to a
 * tool. Everything else asks its tool's profile ({@link #of}) or lists the tools that have a property
 * ({@link #listed}, for the error texts that name them), so adding a tool is a {@link Tool} constant, a profile
 * here and the code that is new for it (a classifier, a webhook format): ARCHITECTURE.md, "Checklist: adding a
 * tool". A tool without a profile stops the class from loading; {@code ToolProfilesTest} says which.
 */
public final class ToolProfiles {
    private static final String CODE_HOST_USER_AGENT = "service/1.0";
    private static final String CODE_HOST_MEDIA_TYPE = "application/vnd.github.v3+json";

    private static final Map<Tool, ToolProfile> PROFILES = index(
            ToolProfile.of(Tool.CODE_HOST, "code host")
                    .riskTable(RiskTables.CODE_HOST)
                    .restTable(new CodeHostRestTable())
                    .graphQl(new CodeHostGraphQl())
                    .caseInsensitiveRoutes()
                    // spec 4.5: `token <t>`, the code host's user agent and its v3 JSON media type
                    .credential(new Credential("token", ordered("User-Agent", CODE_HOST_USER_AGENT,
                            "Accept", CODE_HOST_MEDIA_TYPE), true))
                    // octokit (`new Octokit({auth})`) and the code host's other clients send `token <key>`
                    .keyForms(KeyForm.BEARER, KeyForm.TOKEN)
                    .errorDialect(ErrorDialect.REST)
                    .defaultBaseUrl("https://api.github.com")
                    .base64FileContents()
                    // the callback path is ours: the spec does not show it
                    .oauth(new OAuth("/functions/v1/code-host-oauth-callback", "code-host",
                            "https://github.com/login/oauth/authorize", "https://github.com/login/oauth/access_token",
                            "repo read:org"))
                    .webhooks(new Webhooks("/functions/v1/webhook-code-host",
                            new HeaderNames("X-Code-Host-Signature-256", "X-Hub-Signature-256"),
                            new HeaderNames("X-Code-Host-Delivery", "X-GitHub-Delivery"),
                            new HeaderNames("X-Code-Host-Event", "X-GitHub-Event"),
                            WebhookWatch::codeHost))
                    .connection(ConnectionField.REPOS, ConnectionField.ORG)
                    .build(),
            ToolProfile.of(Tool.ISSUE_TRACKER, "issue tracker")
                    .riskTable(RiskTables.ISSUE_TRACKER)
                    .graphQl(new IssueTrackerGraphQl())
                    .credential(new Credential("Bearer", Map.of(), true))
                    // the Linear SDK's `apiKey` is sent as the whole header value; its `accessToken` as Bearer
                    .keyForms(KeyForm.BEARER, KeyForm.RAW)
                    .errorDialect(ErrorDialect.GRAPHQL)
                    .defaultBaseUrl("https://api.linear.app")
                    // the callback path is the spec's (4.7)
                    .oauth(new OAuth("/functions/v1/issue-tracker-oauth-callback", "issue-tracker",
                            "https://linear.app/oauth/authorize", "https://api.linear.app/oauth/token", "read,write"))
                    .webhooks(new Webhooks("/functions/v1/webhook-issue-tracker",
                            new HeaderNames("Issue-Tracker-Signature", "Linear-Signature"),
                            new HeaderNames("Issue-Tracker-Delivery", "Linear-Delivery"),
                            new HeaderNames("Issue-Tracker-Event", "Linear-Event"),
                            WebhookWatch::issueTracker))
                    .connection(ConnectionField.ORGANIZATION_ID, ConnectionField.TEAM_ID)
                    .build(),
            // chat, docs and internal APIs: no table in the spec, classified by their connection's rules; their
            // clients send Bearer tokens, and a call without a stored token goes out without one
            ToolProfile.of(Tool.CHAT, "chat").build(),
            ToolProfile.of(Tool.DOCS, "docs").build(),
            ToolProfile.of(Tool.INTERNAL_API, "internal API").build(),
            ToolProfile.of(Tool.MCP, "MCP server")
                    .servedByTheMcpGate()
                    .connection(ConnectionField.MCP_SERVER_URL, ConnectionField.MCP_AUTH_TYPE, ConnectionField.MCP_TRANSPORT)
                    .requires(ConnectionField.MCP_SERVER_URL, ConnectionField.MCP_TRANSPORT)
                    .build());

    /** In the order of {@link Tool}, which is the spec's. */
    private static final List<ToolProfile> ALL = Arrays.stream(Tool.values()).map(PROFILES::get).toList();

    private ToolProfiles() {}

    /** The profile of a tool (never null: every tool has one). */
    public static ToolProfile of(Tool tool) {
        return PROFILES.get(Objects.requireNonNull(tool, "tool"));
    }

    /** Every profile, in the order of {@link Tool}. */
    public static List<ToolProfile> all() {
        return ALL;
    }

    /** The profiles with a property, in the order of {@link Tool}. */
    public static List<ToolProfile> where(Predicate<ToolProfile> property) {
        return ALL.stream().filter(property).toList();
    }

    /**
     * The wire names of the tools with a property as a sentence lists them, for the texts that name them:
     * {@code "code_host and issue_tracker"}, {@code "chat, docs and internal_api"} ({@code conjunction} "and"
     * or "or").
     */
    public static String listed(Predicate<ToolProfile> property, String conjunction) {
        List<String> names = where(property).stream().map(profile -> profile.tool().wire()).toList();
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " " + conjunction + " " + names.get(names.size() - 1);
    }

    /** Every tool's wire name, comma-separated: {@code "code_host, issue_tracker, chat, docs, internal_api, mcp"}. */
    public static String wireNames() {
        return ALL.stream().map(profile -> profile.tool().wire()).collect(Collectors.joining(", "));
    }

    private static Map<Tool, ToolProfile> index(ToolProfile... profiles) {
        Map<Tool, ToolProfile> byTool = new EnumMap<>(Tool.class);
        for (ToolProfile profile : profiles) {
            if (byTool.put(profile.tool(), profile) != null) {
                throw new IllegalStateException("two profiles for the " + profile.tool().wire() + " tool");
            }
        }
        List<String> missing = new ArrayList<>();
        for (Tool tool : Tool.values()) {
            if (!byTool.containsKey(tool)) {
                missing.add(tool.wire());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no profile for the tool(s) " + missing
                    + ": every tool has one in ToolProfiles (ARCHITECTURE.md, \"Checklist: adding a tool\")");
        }
        return byTool;
    }

    private static Map<String, String> ordered(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
