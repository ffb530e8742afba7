package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/defaults: the decision per risk level when no policy matches ({@link WorkspaceDefaults}).
 * GET fills levels the workspace never set with the built-in defaults (DESIGN.md: low and medium
 * allow, high require_approval, critical block); {@code approvalTtl} null means the decision
 * stream's built-in TTL.
 */
@Component
public class DefaultsAdminHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final WorkspaceDefaults defaults;

    DefaultsAdminHandler(AdminAccess access, JsonBodyReader bodies, WorkspaceDefaults defaults) {
        this.access = access;
        this.bodies = bodies;
        this.defaults = defaults;
    }

    record DefaultsView(boolean ok, Map<String, String> decisions, String approvalTtl, String timeZone) {}

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> defaults.view(caller.workspaceId()))
                .flatMap(view -> JsonResponses.ok(new DefaultsView(true, view.decisions(), view.approvalTtl(), view.timeZone())));
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request)
                .flatMap(body -> defaults.set(caller.user(), caller.workspaceId(), body, CorrelationIds.of(request)))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE)));
    }
}
