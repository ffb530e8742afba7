package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.auth.ApiKeys;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.Uuids;
import io.agentgateway.ingress.web.WireNames;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RevokeApiKey;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * /admin/v1/workspaces/{workspaceId}/api-keys[/{keyId}]. The key is generated here and shown once
 * in the 201 response; only its hash goes to the log.
 */
@Component
public class ApiKeyAdminHandler {
    static final String SCOPES_MESSAGE = "scopes must be a non-empty array of: " + WireNames.of(Scope.values());

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final ApiKeyRepository keys;

    ApiKeyAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies, ApiKeyRepository keys) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.keys = keys;
    }

    record Issued(boolean ok, String keyId, String key, String name, Set<Scope> scopes, Instant expiresAt, String agentId,
                  String agentIdPattern) {}

    public Mono<ServerResponse> issue(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request).flatMap(body -> {
            IssueApiKey parsed = parse(body);
            String key = ApiKeys.generate(caller.workspaceId());
            IssueApiKey command = new IssueApiKey(UUID.randomUUID().toString(), parsed.name(), ApiKeys.hash(key),
                    parsed.scopes(), parsed.expiresAt(), parsed.agentId(), parsed.agentIdPattern());
            return commands.send(request, caller.user(), caller.workspaceId(), command)
                    .then(JsonResponses.createdShowingASecret(new Issued(true, command.keyId(), key, command.name(), command.scopes(),
                            command.expiresAt(), command.agentId(), command.agentIdPattern())));
        }));
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> keys.list(caller.workspaceId())))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> revoke(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID keyId = Uuids.require(request.pathVariable("keyId"), "keyId");
            return commands.send(request, caller.user(), caller.workspaceId(), new RevokeApiKey(keyId.toString()))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }

    /**
     * name, scopes, expiresAt and the agent the key is bound to ({@code agentId} or {@code agentIdPattern};
     * the decision stream checks their form) of the body (keyId and hash are filled in by the caller).
     */
    private static IssueApiKey parse(ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("name", "scopes", "expiresAt", "agentId", "agentIdPattern"), "");
        String name = JsonFields.requiredText(body, "name", "name must be a non-empty string").strip();
        if (JsonFields.isAbsent(body, "scopes")) {
            throw ApiException.badRequest(SCOPES_MESSAGE);
        }
        Set<Scope> scopes = JsonFields.enumSet(body, "scopes", Scope::parse, SCOPES_MESSAGE);
        if (scopes.isEmpty()) {
            throw ApiException.badRequest(SCOPES_MESSAGE);
        }
        Instant expiresAt = JsonFields.optionalInstant(body, "expiresAt");
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw ApiException.badRequest("expiresAt must be in the future");
        }
        String agentId = optionalAgent(body, "agentId");
        String agentIdPattern = optionalAgent(body, "agentIdPattern");
        if (agentId != null && agentIdPattern != null) {
            throw ApiException.badRequest("agentId and agentIdPattern cannot both be set: bind the key to one agent id or to one pattern");
        }
        return new IssueApiKey(null, name, null, scopes, expiresAt, agentId, agentIdPattern);
    }

    private static String optionalAgent(ObjectNode body, String field) {
        if (JsonFields.isAbsent(body, field)) {
            return null;
        }
        JsonNode value = body.get(field);
        if (!value.isString() || value.asString().isBlank()) {
            throw ApiException.badRequest(field + " must be a non-empty string");
        }
        return value.asString();
    }
}
