package io.agentgateway.console.admin;

import io.agentgateway.classification.ConnectionField;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.oauth.OAuthFlows;
import io.agentgateway.adminapi.tools.ToolConnections;
import io.agentgateway.adminapi.tools.ToolSettingsView;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One card per tool: connected or not, to what, paused or not; its settings (the admin API's body and checks:
 * {@link ToolConnections}, URLs through the egress policy, refusals at their field); "Connect" by OAuth in the browser
 * for the tools that have it (the same flow and state as the admin API's start, {@link OAuthFlows}; the callback comes
 * back here with the result); a token pasted for the others; the webhook URL to copy and the secret's rotation, whose
 * answer is the only page that ever shows the secret. A stored token is never shown, only whether one is set.
 */
@Component
public class ToolsPage {
    /** The API's field → the card's input. */
    static final Map<String, String> INPUTS = Map.ofEntries(Map.entry("config.repos", "repos"), Map.entry("config.org", "org"),
            Map.entry("config.organization_id", "organization_id"), Map.entry("config.team_id", "team_id"),
            Map.entry("mcp_server_url", "mcp_server_url"), Map.entry("mcp_auth_type", "mcp_auth_type"),
            Map.entry("mcp_transport", "mcp_transport"), Map.entry("base_url", "base_url"),
            Map.entry("config.access_token", "access_token"), Map.entry("config.rules", "rules"), Map.entry("config", "repos"));
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AdminPages admin;
    private final ToolConnections tools;
    private final OAuthFlows oauth;

    ToolsPage(AdminPages admin, ToolConnections tools, OAuthFlows oauth) {
        this.admin = admin;
        this.tools = tools;
        this.oauth = oauth;
    }

    /** GET /tools */
    public Mono<ServerResponse> first(ServerRequest request) {
        return admin.first(request, "tools", true);
    }

    /** GET /workspaces/{workspaceId}/tools[?oauth=tool&result=code] */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "see and change tool connections");
            String base = admin.baseUrl.of(request);
            return model(reader, member, base, null, FormErrors.none(), null).map(model -> {
                model.put("oauthResult", oauthResult(request));
                return model;
            });
        }).flatMap(model -> admin.pages.page("tools", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<Map<String, Object>> model(Reader reader, Membership member, String base, String errorTool,
                                            FormErrors errors, Map<String, String> typed) {
        return Mono.zip(admin.model(reader, member, "tools", "tool"),
                tools.list(member.workspaceId(), base).onErrorMap(ConsoleException::notFoundOf),
                (model, views) -> {
                    model.put("cards", views.stream()
                            .map(view -> Card.of(view, errorTool != null && errorTool.equals(view.tool()) ? typed : null))
                            .toList());
                    model.put("errorTool", errorTool);
                    model.put("errors", errors);
                    model.put("transports", Arrays.stream(McpTransport.values()).map(McpTransport::wire).toList());
                    model.put("authTypes", Arrays.stream(McpAuthType.values()).map(McpAuthType::wire).toList());
                    model.put("oauthResult", null);
                    model.put("notice", null);
                    return model;
                });
    }

    /** What the callback said about a flow started here, in the console's own words (never text from the URL). */
    private static String oauthResult(ServerRequest request) {
        String tool = request.queryParam("oauth").orElse(null);
        String code = request.queryParam("result").orElse(null);
        if (tool == null || code == null) {
            return null;
        }
        String name = Tool.parse(tool).map(t -> "the " + ToolProfiles.of(t).displayName()).orElse(null);
        if (name == null) {
            return null;
        }
        return OAuthFlows.Result.parse(code).map(result -> switch (result) {
            case CONNECTED -> "Connected: the token from " + name + " is stored sealed; the proxy uses it from the next call.";
            case DENIED -> "Consent was denied at " + name + ": nothing was stored.";
            case REFUSED -> name.substring(0, 1).toUpperCase() + name.substring(1) + " refused the authorization: nothing was stored.";
            case REUSED -> "This connection attempt was used already: start it again.";
            case NOT_ADMIN -> "The admin who started the connection is no longer an admin or owner here: nothing was stored.";
            case EXCHANGE_FAILED -> "The token endpoint of " + name + " gave no token: nothing was stored. Try again.";
            case UNAVAILABLE -> "OAuth or the decision service is unavailable: nothing was stored. Try again shortly.";
            case FAILED -> "The connection did not complete: nothing was stored.";
        }).orElse(null);
    }

    /** POST /workspaces/{workspaceId}/tools/{tool}: the card's settings (a pasted token replaces the stored one). */
    public Mono<ServerResponse> save(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "change tool connections");
            Tool tool = tool(request);
            UUID workspaceId = member.workspaceId();
            MultiValueMap<String, String> form = submitted.form();
            Map<String, String> typed = typed(form);
            ObjectNode body;
            try {
                body = body(tool, form);
            } catch (ApiException invalid) {
                return rerender(submitted.reader(), member, request, tool, FormErrors.of(invalid, INPUTS).orElseThrow(() -> invalid), typed);
            }
            return tools.put(submitted.reader().session().user(), workspaceId, tool, body, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/tools?saved=" + tool.wire()
                            + "#tool-" + tool.wire()))
                    .onErrorResume(e -> FormErrors.of(e, INPUTS)
                            .map(errors -> rerender(submitted.reader(), member, request, tool, errors, typed))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<ServerResponse> rerender(Reader reader, Membership member, ServerRequest request, Tool tool, FormErrors errors,
                                          Map<String, String> typed) {
        String base = admin.baseUrl.of(request);
        return model(reader, member, base, tool.wire(), errors, typed)
                .flatMap(model -> admin.pages.page(errors.status(), "tools", model));
    }

    /** The inputs as typed, to show them again with an error; never the token's. */
    private static Map<String, String> typed(MultiValueMap<String, String> form) {
        Map<String, String> typed = new LinkedHashMap<>();
        for (String field : List.of("repos", "org", "organization_id", "team_id", "mcp_server_url", "mcp_auth_type",
                "mcp_transport", "base_url", "rules")) {
            String value = form.getFirst(field);
            typed.put(field, value == null ? "" : value);
        }
        return typed;
    }

    /**
     * The admin API's body of the card: the tool's fields (blank: not set), the token only when one is pasted (else the
     * stored one stays) or removed.
     */
    static ObjectNode body(Tool tool, MultiValueMap<String, String> form) {
        ToolProfile profile = ToolProfiles.of(tool);
        ObjectNode body = Forms.object();
        ObjectNode config = body.putObject("config");
        if (profile.takes(ConnectionField.REPOS)) {
            Forms.putList(config, "repos", Forms.lines(form.getFirst("repos")));
        }
        if (profile.takes(ConnectionField.ORG)) {
            Forms.putText(config, "org", Forms.text(form, "org"));
        }
        if (profile.takes(ConnectionField.ORGANIZATION_ID)) {
            Forms.putText(config, "organization_id", Forms.text(form, "organization_id"));
        }
        if (profile.takes(ConnectionField.TEAM_ID)) {
            Forms.putText(config, "team_id", Forms.text(form, "team_id"));
        }
        if (profile.takes(ConnectionField.MCP_SERVER_URL)) {
            Forms.putText(body, "mcp_server_url", Forms.text(form, "mcp_server_url"));
        }
        if (profile.takes(ConnectionField.MCP_AUTH_TYPE)) {
            Forms.putText(body, "mcp_auth_type", Forms.text(form, "mcp_auth_type"));
        }
        if (profile.takes(ConnectionField.MCP_TRANSPORT)) {
            Forms.putText(body, "mcp_transport", Forms.text(form, "mcp_transport"));
        }
        if (profile.proxied()) {
            Forms.putText(body, "base_url", Forms.text(form, "base_url"));
        }
        if (profile.classifiedByConnectionRules() && Forms.text(form, "rules") != null) {
            try {
                config.set("rules", JSON.readTree(Forms.text(form, "rules")));
            } catch (RuntimeException notJson) {
                throw ApiException.badField("config.rules", "config.rules must be a JSON array of {method, path, action, risk} objects");
            }
        }
        String token = Forms.raw(form, "access_token");
        if (token != null) {
            config.put("access_token", token);
        } else if (Forms.checked(form, "remove_access_token")) {
            config.putNull("access_token");
        }
        return body;
    }

    /** POST /workspaces/{workspaceId}/tools/{tool}/disconnect */
    public Mono<ServerResponse> disconnect(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "change tool connections");
            Tool tool = tool(request);
            UUID workspaceId = member.workspaceId();
            return tools.delete(submitted.reader().session().user(), workspaceId, tool, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/tools#tool-" + tool.wire()))
                    .onErrorResume(e -> FormErrors.of(e, Map.of())
                            .map(errors -> rerender(submitted.reader(), member, request, tool, errors, null))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /**
     * POST /workspaces/{workspaceId}/tools/{tool}/webhook-secret: a new secret, stored by the decision stream first and
     * then shown on this answer only ({@code Cache-Control: no-store}, as every console page).
     */
    public Mono<ServerResponse> rotate(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "rotate webhook secrets");
            Tool tool = tool(request);
            UUID workspaceId = member.workspaceId();
            String base = admin.baseUrl.of(request);
            return tools.rotateWebhookSecret(submitted.reader().session().user(), workspaceId, tool, base, CorrelationIds.of(request))
                    .flatMap(rotated -> {
                        Map<String, Object> model = admin.model(submitted.reader(), member, "tools");
                        model.put("rotated", rotated);
                        model.put("toolName", ToolProfiles.of(tool).displayName());
                        return admin.pages.page("secret", model);
                    })
                    .onErrorResume(e -> FormErrors.of(e, Map.of())
                            .map(errors -> rerender(submitted.reader(), member, request, tool, errors, null))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /**
     * GET /workspaces/{workspaceId}/tools/{tool}/connect: starts the OAuth flow for the signed-in admin (the same state,
     * flow cookie and callback as the admin API's start) and sends the browser to the tool's consent page. A link from
     * another site is refused ({@code Sec-Fetch-Site}).
     */
    public Mono<ServerResponse> connect(ServerRequest request) {
        return admin.requests.sameSiteNavigation(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "connect tools");
            Tool tool = tool(request);
            if (!OAuthFlows.connectsByOAuth(tool)) {
                throw ConsoleException.notFound();
            }
            String base = admin.baseUrl.of(request);
            return oauth.start(reader.session().user(), member.workspaceId(), tool, base, true)
                    .flatMap(started -> ServerResponse.status(HttpStatus.FOUND).location(started.authorizeUrl())
                            .cookie(started.flowCookie())
                            // the state in the URL is a one-time credential for this workspace: no cache keeps it
                            .header(HttpHeaders.CACHE_CONTROL, "no-store").build());
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private static Tool tool(ServerRequest request) {
        return Tool.parse(request.pathVariable("tool")).orElseThrow(ConsoleException::notFound);
    }

    /**
     * One tool's card: its settings as stored (never a secret), what the tool takes, and the inputs as typed when the
     * last submission of this card had errors.
     */
    public record Card(ToolSettingsView view, String name, boolean oauth, boolean proxied, boolean webhooks,
                       Set<String> fields, boolean rules, Map<String, String> values) {
        static Card of(ToolSettingsView view, Map<String, String> typed) {
            Tool tool = Tool.parse(view.tool()).orElseThrow();
            ToolProfile profile = ToolProfiles.of(tool);
            Set<String> fields = Arrays.stream(ConnectionField.values()).filter(profile::takes)
                    .map(ConnectionField::fieldName).collect(Collectors.toCollection(LinkedHashSet::new));
            Map<String, String> values = typed != null ? typed : stored(view);
            return new Card(view, profile.displayName(), profile.connectsByOAuth(), profile.proxied(), profile.sendsWebhooks(),
                    fields, profile.classifiedByConnectionRules(), values);
        }

        private static Map<String, String> stored(ToolSettingsView view) {
            Map<String, String> values = new LinkedHashMap<>();
            values.put("repos", String.join("\n", view.config().repos()));
            values.put("org", orEmpty(view.config().org()));
            values.put("organization_id", orEmpty(view.config().organizationId()));
            values.put("team_id", orEmpty(view.config().teamId()));
            values.put("mcp_server_url", orEmpty(view.mcpServerUrl()));
            values.put("mcp_auth_type", orEmpty(view.mcpAuthType()));
            values.put("mcp_transport", orEmpty(view.mcpTransport()));
            values.put("base_url", orEmpty(view.baseUrl()));
            values.put("rules", view.config().rules().isEmpty() ? "" : JSON.writeValueAsString(view.config().rules()));
            return values;
        }

        public boolean takes(String field) {
            return fields.contains(field);
        }

        /** What it is connected to, in a line. */
        public String target() {
            List<String> parts = new ArrayList<>();
            if (!view.config().repos().isEmpty()) {
                parts.add("repositories " + String.join(", ", view.config().repos()));
            }
            if (view.config().org() != null) {
                parts.add("organization " + view.config().org());
            }
            if (view.config().organizationId() != null) {
                parts.add("organization " + view.config().organizationId());
            }
            if (view.config().teamId() != null) {
                parts.add("team " + view.config().teamId());
            }
            if (view.mcpServerUrl() != null) {
                parts.add("MCP server " + view.mcpServerUrl() + (view.mcpTransport() == null ? "" : " (" + view.mcpTransport()
                        + (view.mcpAuthType() == null ? "" : ", " + view.mcpAuthType()) + ")"));
            }
            if (view.baseUrl() != null) {
                parts.add("base URL " + view.baseUrl());
            }
            return String.join("; ", parts);
        }

        private static String orEmpty(String value) {
            return value == null ? "" : value;
        }
    }
}
