package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.auth.OperatorAuthenticator;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.schemas.command.CreateWorkspace;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The operator's workspace endpoints: creating and listing workspaces is for the subjects named in
 * {@code gateway.auth.operators}, not for any valid user JWT (docs/decisions/0027-operators-create-workspaces.md).
 * POST /admin/v1/workspaces {name, ownerUserId?, ownerEmail?}: a new workspace whose first owner is
 * {@code ownerUserId} (else the operator); GET /admin/v1/workspaces: every workspace. Both 403
 * {@value OperatorAuthenticator#OPERATOR_REQUIRED} for anyone not in {@code gateway.auth.operators}.
 */
@Component
public class WorkspaceAdminHandler {
    static final int MAX_ID_LENGTH = 256;

    private final OperatorAuthenticator operators;
    private final JsonBodyReader bodies;
    private final AdminCommands commands;
    private final WorkspaceRepository workspaces;

    WorkspaceAdminHandler(OperatorAuthenticator operators, JsonBodyReader bodies, AdminCommands commands,
                          WorkspaceRepository workspaces) {
        this.operators = operators;
        this.bodies = bodies;
        this.commands = commands;
        this.workspaces = workspaces;
    }

    record Created(boolean ok, String workspaceId) {}

    public Mono<ServerResponse> create(ServerRequest request) {
        return operators.authenticate(request).flatMap(operator -> bodies.readObject(request).flatMap(body -> {
            JsonFields.onlyKnownFields(body, Set.of("name", "ownerUserId", "ownerEmail"), "");
            String name = JsonFields.requiredText(body, "name", "name must be a non-empty string");
            String ownerUserId = optionalText(body, "ownerUserId");
            String ownerEmail = optionalText(body, "ownerEmail");
            if (ownerEmail != null && ownerUserId == null) {
                throw io.agentgateway.ingress.web.ApiException.badRequest("ownerEmail needs ownerUserId");
            }
            UUID workspaceId = UUID.randomUUID();
            return commands.send(request, operator, workspaceId, new CreateWorkspace(name.strip(), ownerUserId, ownerEmail))
                    .then(JsonResponses.created(new Created(true, workspaceId.toString())));
        }));
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return operators.authenticate(request)
                .map(operator -> QueryParams.limit(QueryParams.param(request, "limit"), 100, 500))
                .flatMap(limit -> Blocking.call(() -> workspaces.list(limit)))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    private static String optionalText(tools.jackson.databind.node.ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString() || value.asString().isBlank() || value.asString().length() > MAX_ID_LENGTH) {
            throw io.agentgateway.ingress.web.ApiException.badRequest(field + " must be a non-empty string of at most "
                    + MAX_ID_LENGTH + " characters");
        }
        return value.asString().strip();
    }
}
