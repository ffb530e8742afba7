package io.agentgateway.ingress.admin;

import io.agentgateway.decision.condition.ConditionEnvironment;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.Uuids;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** /admin/v1/workspaces/{workspaceId}/policies[/{policyId}]. */
@Component
public class PolicyAdminHandler {
    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final PolicyRepository policies;
    private final ConditionEnvironment conditions;

    PolicyAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies, PolicyRepository policies,
                       ConditionEnvironment conditions) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.policies = policies;
        this.conditions = conditions;
    }

    record Saved(boolean ok, String policyId) {}

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> policies.list(caller.workspaceId())))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> create(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request).flatMap(body -> {
            UUID policyId = UUID.randomUUID();
            UpsertPolicy command = new UpsertPolicy(PolicyBodies.parse(body, policyId, false, conditions));
            return commands.send(request, caller.user(), caller.workspaceId(), command)
                    .then(JsonResponses.created(new Saved(true, policyId.toString())));
        }));
    }

    public Mono<ServerResponse> replace(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID policyId = Uuids.require(request.pathVariable("policyId"), "policyId");
            return bodies.readObject(request).flatMap(body -> {
                UpsertPolicy command = new UpsertPolicy(PolicyBodies.parse(body, policyId, true, conditions));
                return commands.send(request, caller.user(), caller.workspaceId(), command)
                        .then(JsonResponses.ok(new Saved(true, policyId.toString())));
            });
        });
    }

    public Mono<ServerResponse> delete(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID policyId = Uuids.require(request.pathVariable("policyId"), "policyId");
            return commands.send(request, caller.user(), caller.workspaceId(), new DeletePolicy(policyId.toString()))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }
}
