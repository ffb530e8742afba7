package io.agentgateway.adminapi.members;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** /admin/v1/workspaces/{workspaceId}/members[/{userId}]: the HTTP side of {@link MemberAdmin}. */
@Component
public class MemberAdminHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final MemberAdmin members;

    MemberAdminHandler(AdminAccess access, JsonBodyReader bodies, MemberAdmin members) {
        this.access = access;
        this.bodies = bodies;
        this.members = members;
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> members.list(caller.workspaceId()))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> set(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            String userId = MemberAdmin.userId(request.pathVariable("userId"));
            return bodies.readObject(request)
                    .flatMap(body -> members.set(caller.user(), caller.workspaceId(), userId, body, CorrelationIds.of(request)))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }

    public Mono<ServerResponse> remove(ServerRequest request) {
        return access.caller(request).flatMap(caller -> members
                .remove(caller.user(), caller.workspaceId(), request.pathVariable("userId"), CorrelationIds.of(request))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE)));
    }
}
