package io.agentgateway.adminapi;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** GET /admin/v1/workspaces/{workspaceId}/kill-switch: the projected kill-switch state. */
@Component
public class WorkspaceStateHandler {
    static final String WORKSPACE_NOT_FOUND = "Workspace not found";

    private final AdminAccess access;
    private final WorkspaceRepository workspaces;

    WorkspaceStateHandler(AdminAccess access, WorkspaceRepository workspaces) {
        this.access = access;
        this.workspaces = workspaces;
    }

    record KillSwitchView(boolean ok, boolean killSwitchEnabled, List<String> pausedTools) {}

    public Mono<ServerResponse> killSwitch(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> workspaces.killSwitch(caller.workspaceId()).orElse(null)))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(WORKSPACE_NOT_FOUND)))
                .flatMap(state -> JsonResponses.ok(new KillSwitchView(true, state.killSwitchEnabled(), state.pausedTools())));
    }
}
