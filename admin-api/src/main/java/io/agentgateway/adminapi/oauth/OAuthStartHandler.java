package io.agentgateway.adminapi.oauth;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/v1/workspaces/{workspaceId}/tools/{tool}/oauth/start} (USER_JWT, admin or owner):
 * a 302 to the tool's authorize URL with a fresh signed and sealed {@code state} bound to the workspace, the tool,
 * this admin and this browser (a cookie set with the answer: {@link OAuthBrowserBinding}); {@link OAuthFlows} makes it.
 * The body repeats the URL ({@code authorizeUrl}) for a client that reads the answer rather than follow it.
 */
@Component
public class OAuthStartHandler {
    private final AdminAccess access;
    private final OAuthFlows flows;
    private final PublicBaseUrl baseUrl;

    OAuthStartHandler(AdminAccess access, OAuthFlows flows, PublicBaseUrl baseUrl) {
        this.access = access;
        this.flows = flows;
        this.baseUrl = baseUrl;
    }

    record Started(boolean ok, String tool, String authorizeUrl) {}

    public Mono<ServerResponse> start(ServerRequest request) {
        return access.admin(request).flatMap(caller -> {
            OAuthTool tool = OAuthTool.parse(request.pathVariable("tool"));
            return flows.start(caller.user(), caller.workspaceId(), tool.tool(), baseUrl.of(request), false)
                    .flatMap(started -> ServerResponse.status(HttpStatus.FOUND)
                            .location(started.authorizeUrl())
                            .cookie(started.flowCookie())
                            // the state in the URL is a one-time credential for this workspace: no cache keeps it
                            .header(HttpHeaders.CACHE_CONTROL, "no-store")
                            .contentType(MediaType.APPLICATION_JSON)
                            .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(new Started(true, tool.tool().wire(),
                                    started.authorizeUrl().toString()))));
        });
    }
}
