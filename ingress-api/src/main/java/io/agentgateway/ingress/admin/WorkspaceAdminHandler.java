package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.auth.UserAuthenticator;
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

/** POST /admin/v1/workspaces {name}: a new workspace with the caller as its owner. */
@Component
public class WorkspaceAdminHandler {
    private final UserAuthenticator users;
    private final JsonBodyReader bodies;
    private final AdminCommands commands;

    WorkspaceAdminHandler(UserAuthenticator users, JsonBodyReader bodies, AdminCommands commands) {
        this.users = users;
        this.bodies = bodies;
        this.commands = commands;
    }

    record Created(boolean ok, String workspaceId) {}

    public Mono<ServerResponse> create(ServerRequest request) {
        return users.authenticate(request).flatMap(user -> bodies.readObject(request).flatMap(body -> {
            JsonFields.onlyKnownFields(body, Set.of("name"), "");
            String name = JsonFields.requiredText(body, "name", "name must be a non-empty string");
            UUID workspaceId = UUID.randomUUID();
            return commands.send(request, user, workspaceId, new CreateWorkspace(name.strip()))
                    .then(JsonResponses.created(new Created(true, workspaceId.toString())));
        }));
    }
}
