package io.agentgateway.adminapi.workspaces;

import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.auth.OperatorAuthenticator;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The operator's workspace endpoints ({@link Workspaces}): creating and listing workspaces is for the subjects named in
 * {@code gateway.auth.operators}, not for any valid user JWT (docs/decisions/0027-operators-create-workspaces.md).
 * POST /admin/v1/workspaces {name, ownerUserId?, ownerEmail?}: a new workspace whose first owner is
 * {@code ownerUserId} (else the operator); GET /admin/v1/workspaces: every workspace. Both 403
 * {@value OperatorAuthenticator#OPERATOR_REQUIRED} for anyone not in {@code gateway.auth.operators}.
 */
@Component
public class WorkspaceAdminHandler {
    private final OperatorAuthenticator operators;
    private final JsonBodyReader bodies;
    private final Workspaces workspaces;

    WorkspaceAdminHandler(OperatorAuthenticator operators, JsonBodyReader bodies, Workspaces workspaces) {
        this.operators = operators;
        this.bodies = bodies;
        this.workspaces = workspaces;
    }

    record Created(boolean ok, String workspaceId) {}

    public Mono<ServerResponse> create(ServerRequest request) {
        return operators.authenticate(request).flatMap(operator -> bodies.readObject(request)
                .flatMap(body -> workspaces.create(operator, body, CorrelationIds.of(request)))
                .flatMap(workspaceId -> JsonResponses.created(new Created(true, workspaceId.toString()))));
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return operators.authenticate(request)
                .flatMap(operator -> {
                    int limit = QueryParams.limit(QueryParams.param(request, "limit"), 100, 500);
                    return workspaces.list(operator, limit);
                })
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }
}
