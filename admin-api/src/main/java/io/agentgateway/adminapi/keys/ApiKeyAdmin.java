package io.agentgateway.adminapi.keys;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RevokeApiKey;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's API keys, for every client of them (the admin API, the console): issue (the key is generated here,
 * only its hash goes to the log, and it is handed back this once), list (never the hash), revoke. Issuing and revoking
 * are commands through the decision stream, which checks the admin role and the key limit in log order.
 */
@Service
public class ApiKeyAdmin {
    static final String SCOPES_MESSAGE = "scopes must be a non-empty array of: " + WireNames.of(Scope.values());

    /**
     * A key as listed. {@code agentId} / {@code agentIdPattern}: the agent the key is bound to, null for none;
     * {@code lastUsedAt}: the last evaluation it made, to the minute (null: never used).
     */
    public record ApiKeyView(String keyId, String name, List<String> scopes, Instant expiresAt, Instant revokedAt,
                             Instant createdAt, String agentId, String agentIdPattern, Instant lastUsedAt) {}

    /** A key just issued: {@code key} is its only copy, to be shown once and never again. */
    public record IssuedKey(String keyId, String key, String name, Set<Scope> scopes, Instant expiresAt, String agentId,
                            String agentIdPattern) {
        @Override
        public String toString() {
            return "IssuedKey[keyId=" + keyId + ", key=redacted, name=" + name + ", scopes=" + scopes + "]";
        }
    }

    private final AdminCommands commands;
    private final ApiKeyRepository keys;

    ApiKeyAdmin(AdminCommands commands, ApiKeyRepository keys) {
        this.commands = commands;
        this.keys = keys;
    }

    /** Newest first. */
    public Mono<List<ApiKeyView>> list(UUID workspaceId) {
        return Blocking.call(() -> keys.list(workspaceId));
    }

    /**
     * {@code {name, scopes, expiresAt?, agentId? | agentIdPattern?}} as {@code POST .../api-keys} takes it; the key once
     * the stream stored its hash.
     */
    public Mono<IssuedKey> issue(AuthenticatedUser user, UUID workspaceId, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> parse(body)).flatMap(parsed -> {
            String key = ApiKeys.generate(workspaceId);
            IssueApiKey command = new IssueApiKey(UUID.randomUUID().toString(), parsed.name(), ApiKeys.hash(key),
                    parsed.scopes(), parsed.expiresAt(), parsed.agentId(), parsed.agentIdPattern());
            return commands.send(correlationId, user, workspaceId, command)
                    .thenReturn(new IssuedKey(command.keyId(), key, command.name(), command.scopes(), command.expiresAt(),
                            command.agentId(), command.agentIdPattern()));
        });
    }

    public Mono<Applied> revoke(AuthenticatedUser user, UUID workspaceId, UUID keyId, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new RevokeApiKey(keyId.toString()));
    }

    /**
     * name, scopes, expiresAt and the agent the key is bound to ({@code agentId} or {@code agentIdPattern};
     * the decision stream checks their form) of the body (keyId and hash are filled in by the caller).
     */
    private static IssueApiKey parse(ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("name", "scopes", "expiresAt", "agentId", "agentIdPattern"), "");
        String name = JsonFields.requiredText(body, "name", "name must be a non-empty string").strip();
        if (JsonFields.isAbsent(body, "scopes")) {
            throw ApiException.badField("scopes", SCOPES_MESSAGE);
        }
        Set<Scope> scopes = JsonFields.enumSet(body, "scopes", Scope::parse, SCOPES_MESSAGE);
        if (scopes.isEmpty()) {
            throw ApiException.badField("scopes", SCOPES_MESSAGE);
        }
        Instant expiresAt = JsonFields.optionalInstant(body, "expiresAt");
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw ApiException.badField("expiresAt", "expiresAt must be in the future");
        }
        String agentId = optionalAgent(body, "agentId");
        String agentIdPattern = optionalAgent(body, "agentIdPattern");
        if (agentId != null && agentIdPattern != null) {
            throw ApiException.badField("agentIdPattern",
                    "agentId and agentIdPattern cannot both be set: bind the key to one agent id or to one pattern");
        }
        return new IssueApiKey(null, name, null, scopes, expiresAt, agentId, agentIdPattern);
    }

    private static String optionalAgent(ObjectNode body, String field) {
        if (JsonFields.isAbsent(body, field)) {
            return null;
        }
        JsonNode value = body.get(field);
        if (!value.isString() || value.asString().isBlank()) {
            throw ApiException.badField(field, field + " must be a non-empty string");
        }
        return value.asString();
    }
}
