package io.agentgateway.console.admin;

import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.adminapi.keys.ApiKeyAdmin;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's API keys: issue one with a name, scopes, an optional expiry and an optional bound agent (the admin
 * API's body and checks, {@link ApiKeyAdmin}); the key is shown once, on the answer of its issue, with a copy button
 * and the snippets an agent needs; the list with each key's last use; revoke. A key is never shown again: the gateway
 * keeps only its hash.
 */
@Component
public class ApiKeysPage {
    static final Map<String, String> INPUTS = Map.of("name", "name", "scopes", "scopes", "expiresAt", "expiresAt",
            "agentId", "agentId", "agentIdPattern", "agentIdPattern");

    private final AdminPages admin;
    private final ApiKeyAdmin keys;

    ApiKeysPage(AdminPages admin, ApiKeyAdmin keys) {
        this.admin = admin;
        this.keys = keys;
    }

    /** GET /api-keys */
    public Mono<ServerResponse> first(ServerRequest request) {
        return admin.first(request, "api-keys", true);
    }

    /** GET /workspaces/{workspaceId}/api-keys */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "see and issue API keys");
            return model(reader, member, FormErrors.none(), typed(null)).map(model -> {
                model.put("revoked", request.queryParam("revoked").isPresent());
                return model;
            });
        }).flatMap(model -> admin.pages.page("apikeys", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<Map<String, Object>> model(Reader reader, Membership member, FormErrors errors, Map<String, Object> typed) {
        return Mono.zip(admin.model(reader, member, "api-keys", "api_key"), keys.list(member.workspaceId()), (model, list) -> {
            model.put("keys", list);
            model.put("scopes", Arrays.stream(Scope.values()).map(Scope::wire).toList());
            model.put("errors", errors);
            model.put("typed", typed);
            model.put("revoked", false);
            return model;
        });
    }

    private static Map<String, Object> typed(MultiValueMap<String, String> form) {
        Map<String, Object> typed = new LinkedHashMap<>();
        for (String field : List.of("name", "expiresAt", "agentId", "agentIdPattern")) {
            String value = form == null ? null : form.getFirst(field);
            typed.put(field, value == null ? "" : value);
        }
        typed.put("scopes", form == null ? List.of("proxy") : Forms.values(form, "scopes"));
        return typed;
    }

    /** POST /workspaces/{workspaceId}/api-keys: the key, shown this once. */
    public Mono<ServerResponse> issue(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "issue API keys");
            UUID workspaceId = member.workspaceId();
            MultiValueMap<String, String> form = submitted.form();
            ObjectNode body = Forms.object();
            Forms.putText(body, "name", Forms.text(form, "name"));
            List<String> scopes = Forms.values(form, "scopes");
            if (!scopes.isEmpty()) {
                body.putArray("scopes").addAll(scopes.stream().map(s -> (tools.jackson.databind.JsonNode)
                        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(s)).toList());
            }
            String expires = Forms.text(form, "expiresAt");
            if (expires != null) {
                body.put("expiresAt", instant(expires));
            }
            Forms.putText(body, "agentId", Forms.text(form, "agentId"));
            Forms.putText(body, "agentIdPattern", Forms.text(form, "agentIdPattern"));
            String base = admin.baseUrl.of(request);
            return keys.issue(submitted.reader().session().user(), workspaceId, body, CorrelationIds.of(request))
                    .flatMap(issued -> {
                        Map<String, Object> model = admin.model(submitted.reader(), member, "api-keys");
                        model.put("issued", issued);
                        model.put("scopeNames", issued.scopes().stream().map(Scope::wire).sorted().toList());
                        model.put("snippets", Snippets.of(base, issued.key()));
                        return admin.pages.page(HttpStatus.CREATED, "apikey", model);
                    })
                    .onErrorResume(e -> FormErrors.of(e, INPUTS)
                            .map(errors -> model(submitted.reader(), member, errors, typed(form))
                                    .flatMap(model -> admin.pages.page(errors.status(), "apikeys", model)))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /**
     * A {@code datetime-local} input (the browser's, no zone: read as UTC, as the page says) to ISO-8601; anything else
     * is passed as typed for the API to judge.
     */
    static String instant(String text) {
        try {
            return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toString();
        } catch (DateTimeParseException notLocal) {
            try {
                return Instant.parse(text).toString();
            } catch (DateTimeParseException notAnInstant) {
                return text;
            }
        }
    }

    /** POST /workspaces/{workspaceId}/api-keys/{keyId}/revoke */
    public Mono<ServerResponse> revoke(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "revoke API keys");
            UUID workspaceId = member.workspaceId();
            UUID keyId = ConsoleRequests.uuid(request.pathVariable("keyId"));
            return keys.revoke(submitted.reader().session().user(), workspaceId, keyId, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/api-keys?revoked"))
                    .onErrorResume(e -> FormErrors.of(e, Map.of())
                            .map(errors -> model(submitted.reader(), member, errors, typed(null))
                                    .flatMap(model -> admin.pages.page(errors.status(), "apikeys", model)))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** What an agent needs to use a new key: its SDKs' two settings (docs/agent-clients.md). */
    public record Snippets(String octokit, String linear, String mcp, String codeHostBaseUrl, String issueTrackerApiUrl,
                           String mcpUrl) {
        static Snippets of(String base, String key) {
            String codeHost = base + "/functions/v1/gateway-proxy/code_host";
            String issueTracker = base + "/functions/v1/gateway-proxy/issue_tracker/graphql";
            String mcp = base + "/functions/v1/mcp-gate/sse";
            return new Snippets(
                    "const octokit = new Octokit({ baseUrl: '" + codeHost + "', auth: '" + key + "' });",
                    "const linear = new LinearClient({ apiUrl: '" + issueTracker + "', apiKey: '" + key + "' });",
                    "{\n  \"url\": \"" + mcp + "\",\n  \"headers\": { \"Authorization\": \"Bearer " + key + "\" },\n"
                            + "  \"transport\": \"sse\"\n}",
                    codeHost, issueTracker, mcp);
        }

        @Override
        public String toString() {
            return "Snippets[redacted]";
        }
    }
}
