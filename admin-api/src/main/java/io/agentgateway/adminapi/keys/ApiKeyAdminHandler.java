package io.agentgateway.adminapi.keys;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/api-keys[/{keyId}]: the HTTP side of {@link ApiKeyAdmin}. The key is shown once,
 * in the 201 response; only its hash goes to the log.
 */
@Component
public class ApiKeyAdminHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final ApiKeyAdmin keys;

    ApiKeyAdminHandler(AdminAccess access, JsonBodyReader bodies, ApiKeyAdmin keys) {
        this.access = access;
        this.bodies = bodies;
        this.keys = keys;
    }

    record Issued(boolean ok, String keyId, String key, String name, Set<Scope> scopes, Instant expiresAt, String agentId,
                  String agentIdPattern) {}

    public Mono<ServerResponse> issue(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request)
                .flatMap(body -> keys.issue(caller.user(), caller.workspaceId(), body, CorrelationIds.of(request)))
                .flatMap(issued -> JsonResponses.createdShowingASecret(new Issued(true, issued.keyId(), issued.key(),
                        issued.name(), issued.scopes(), issued.expiresAt(), issued.agentId(), issued.agentIdPattern()))));
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> keys.list(caller.workspaceId()))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> revoke(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID keyId = Uuids.require(request.pathVariable("keyId"), "keyId");
            return keys.revoke(caller.user(), caller.workspaceId(), keyId, CorrelationIds.of(request))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }
}
