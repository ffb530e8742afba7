package io.agentgateway.ingress.oauth;

import io.agentgateway.ingress.admin.AdminAccess;
import io.agentgateway.ingress.web.PublicBaseUrl;
import io.agentgateway.ingress.web.IngressJson;
import java.net.URI;
import java.time.Clock;
import java.util.UUID;
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
 * this admin and this browser (a cookie set with the answer: {@link OAuthBrowserBinding}). The body repeats the URL ({@code authorizeUrl}) for a client that reads the answer
 * rather than follow it. Everything the callback will need is checked here first (503 when OAuth, the
 * tool's app or secret storage is not configured), so an admin is never sent to consent for nothing.
 */
@Component
public class OAuthStartHandler {
    private final AdminAccess access;
    private final OAuthConfiguration configuration;
    private final OAuthStateTokens states;
    private final PublicBaseUrl baseUrl;
    private final OAuthProperties properties;
    private final Clock clock = Clock.systemUTC();

    OAuthStartHandler(AdminAccess access, OAuthConfiguration configuration, OAuthStateTokens states,
                      PublicBaseUrl baseUrl, OAuthProperties properties) {
        this.access = access;
        this.configuration = configuration;
        this.states = states;
        this.baseUrl = baseUrl;
        this.properties = properties;
    }

    record Started(boolean ok, String tool, String authorizeUrl) {}

    public Mono<ServerResponse> start(ServerRequest request) {
        return access.admin(request).flatMap(caller -> {
            OAuthTool tool = OAuthTool.parse(request.pathVariable("tool"));
            OAuthClientProperties app = configuration.requireReady(tool);
            String redirectUri = baseUrl.of(request) + tool.callbackPath();
            // the flow belongs to this browser: a random cookie value, whose hash the sealed state binds
            String browser = OAuthBrowserBinding.newValue();
            OAuthState state = new OAuthState(caller.workspaceId(), tool, caller.user().userId(), caller.user().email(),
                    UUID.randomUUID().toString(), redirectUri, clock.instant().plus(properties.stateTtl()),
                    OAuthBrowserBinding.binding(browser));
            URI location = AuthorizeRedirect.of(app, redirectUri, states.sign(state));
            return ServerResponse.status(HttpStatus.FOUND)
                    .location(location)
                    .cookie(OAuthBrowserBinding.cookie(tool, browser, redirectUri, properties.stateTtl()))
                    // the state in the URL is a one-time credential for this workspace: no cache keeps it
                    .header(HttpHeaders.CACHE_CONTROL, "no-store")
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(new Started(true, tool.tool().wire(), location.toString())));
        });
    }
}
