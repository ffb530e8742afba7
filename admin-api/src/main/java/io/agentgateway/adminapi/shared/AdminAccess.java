package io.agentgateway.adminapi.shared;

import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.auth.UserAuthenticator;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.Uuids;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Who may use an admin endpoint (the handlers' first step). Reads check the projected membership (admin or owner; a
 * workspace that does not exist looks the same as one the caller is not admin of: 403). Writes only need an
 * authenticated user here: the decision stream checks the role against its own state, in log order.
 */
@Component
public class AdminAccess {
    private final UserAuthenticator users;
    private final WorkspaceRoles roles;

    AdminAccess(UserAuthenticator users, WorkspaceRoles roles) {
        this.users = users;
        this.roles = roles;
    }

    /** An authenticated user and the path's workspace id (401, then 400). */
    public Mono<WorkspaceCaller> caller(ServerRequest request) {
        return users.authenticate(request)
                .map(user -> new WorkspaceCaller(user, workspaceId(request)));
    }

    /** As {@link #caller}, and the user must be admin or owner of the workspace (403). */
    public Mono<WorkspaceCaller> admin(ServerRequest request) {
        return caller(request).flatMap(this::requireAdmin);
    }

    /** The caller itself when admin or owner of its workspace, else a 403. */
    public Mono<WorkspaceCaller> requireAdmin(WorkspaceCaller caller) {
        // a reviewer or viewer reads and reviews through the console, never the admin API's admin reads
        return Blocking.call(() -> roles.administers(caller.workspaceId(), caller.user().userId()))
                .map(administers -> {
                    if (!administers) {
                        throw ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED);
                    }
                    return caller;
                });
    }

    static UUID workspaceId(ServerRequest request) {
        return Uuids.require(request.pathVariable("workspaceId"), "workspaceId");
    }

    public record WorkspaceCaller(AuthenticatedUser user, UUID workspaceId) {}
}
