package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.WireNames;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.SetMember;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** /admin/v1/workspaces/{workspaceId}/members[/{userId}]. */
@Component
public class MemberAdminHandler {
    static final String ROLE_MESSAGE = "role must be one of: " + WireNames.of(Role.values());
    private static final int MAX_USER_ID_LENGTH = 256;

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final MemberRepository members;

    MemberAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies, MemberRepository members) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.members = members;
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> members.list(caller.workspaceId())))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> set(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            String userId = userId(request);
            return bodies.readObject(request).flatMap(body -> {
                JsonFields.onlyKnownFields(body, Set.of("email", "role"), "");
                String email = JsonFields.optionalString(body, "email");
                if (email != null && (email.isBlank() || !email.contains("@"))) {
                    throw ApiException.badRequest("email must be an email address");
                }
                Role role = JsonFields.requiredEnum(body, "role", Role::parse, ROLE_MESSAGE);
                return commands.send(request, caller.user(), caller.workspaceId(), new SetMember(userId, email, role))
                        .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
            });
        });
    }

    public Mono<ServerResponse> remove(ServerRequest request) {
        return access.caller(request).flatMap(caller -> commands
                .send(request, caller.user(), caller.workspaceId(), new RemoveMember(userId(request)))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE)));
    }

    private static String userId(ServerRequest request) {
        String userId = request.pathVariable("userId");
        if (userId.isBlank() || userId.length() > MAX_USER_ID_LENGTH) {
            throw ApiException.badRequest("userId must be a non-empty string of at most " + MAX_USER_ID_LENGTH + " characters");
        }
        return userId;
    }
}
