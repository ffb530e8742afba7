package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** /admin/v1/workspaces/{workspaceId}/policies[/{policyId}]: the HTTP side of {@link PolicyAdmin}. */
@Component
public class PolicyAdminHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final PolicyAdmin policies;

    PolicyAdminHandler(AdminAccess access, JsonBodyReader bodies, PolicyAdmin policies) {
        this.access = access;
        this.bodies = bodies;
        this.policies = policies;
    }

    record Saved(boolean ok, String policyId) {}

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> policies.list(caller.workspaceId()))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> create(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request).flatMap(body -> {
            UUID policyId = UUID.randomUUID();
            return policies.check(body, policyId, false)
                    .flatMap(policy -> policies.save(caller.user(), caller.workspaceId(), policy, CorrelationIds.of(request)))
                    .then(JsonResponses.created(new Saved(true, policyId.toString())));
        }));
    }

    public Mono<ServerResponse> replace(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID policyId = Uuids.require(request.pathVariable("policyId"), "policyId");
            return bodies.readObject(request)
                    .flatMap(body -> policies.check(body, policyId, true))
                    .flatMap(policy -> policies.save(caller.user(), caller.workspaceId(), policy, CorrelationIds.of(request)))
                    .then(JsonResponses.ok(new Saved(true, policyId.toString())));
        });
    }

    public Mono<ServerResponse> delete(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID policyId = Uuids.require(request.pathVariable("policyId"), "policyId");
            return policies.delete(caller.user(), caller.workspaceId(), policyId, CorrelationIds.of(request))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }
}
