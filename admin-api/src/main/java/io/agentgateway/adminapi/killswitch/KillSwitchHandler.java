package io.agentgateway.adminapi.killswitch;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.auth.UserAuthenticator;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The HTTP side of {@link KillSwitch} (which the console uses too). POST /functions/v1/kill-switch (spec 4.2): user JWT
 * (401), body (400), then the decision stream, which checks the admin/owner role in log order (403) and applies the
 * switch; {@code {ok:true}} only after the stream has accepted the change, so a 200 means every later command of the
 * workspace sees it. An optional {@code reason} is kept with the change. GET
 * /admin/v1/workspaces/{workspaceId}/kill-switch: the projected state (admin or owner).
 */
@Component
public class KillSwitchHandler {
    private final UserAuthenticator users;
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final KillSwitch killSwitch;

    KillSwitchHandler(UserAuthenticator users, AdminAccess access, JsonBodyReader bodies, KillSwitch killSwitch) {
        this.users = users;
        this.access = access;
        this.bodies = bodies;
        this.killSwitch = killSwitch;
    }

    record StateView(boolean ok, boolean killSwitchEnabled, List<String> pausedTools) {}

    public Mono<ServerResponse> killSwitch(ServerRequest request) {
        String correlationId = CorrelationIds.of(request);
        return users.authenticate(request)
                .flatMap(user -> bodies.readObject(request)
                        .map(KillSwitchRequests::parse)
                        .flatMap(parsed -> killSwitch.apply(user, parsed.workspaceId(), parsed.command().action(),
                                parsed.command().tool(), parsed.command().reason(), correlationId)))
                // the API's one text for a refusal of the role (spec 4.2), whatever the stream said
                .onErrorMap(e -> e instanceof ApiException api && api.status() == HttpStatus.FORBIDDEN,
                        e -> ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
    }

    public Mono<ServerResponse> state(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> killSwitch.state(caller.workspaceId()))
                .flatMap(state -> JsonResponses.ok(new StateView(true, state.killSwitchEnabled(), state.pausedTools())));
    }
}
