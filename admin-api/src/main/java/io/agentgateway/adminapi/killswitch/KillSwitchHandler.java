package io.agentgateway.adminapi.killswitch;

import io.agentgateway.httpedge.auth.UserAuthenticator;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * POST /functions/v1/kill-switch (spec 4.2): user JWT (401), body (400), then the decision stream
 * ({@link KillSwitchCommands}, which the console uses too), which checks the admin/owner role in log order (403) and
 * applies the switch. {@code {ok:true}} is returned only after the stream has accepted the change, so a 200 means
 * every later command of the workspace sees it. An optional {@code reason} is kept with the change.
 */
@Component
public class KillSwitchHandler {
    private final UserAuthenticator users;
    private final JsonBodyReader bodies;
    private final KillSwitchCommands commands;

    KillSwitchHandler(UserAuthenticator users, JsonBodyReader bodies, KillSwitchCommands commands) {
        this.users = users;
        this.bodies = bodies;
        this.commands = commands;
    }

    public Mono<ServerResponse> killSwitch(ServerRequest request) {
        String correlationId = CorrelationIds.of(request);
        return users.authenticate(request)
                .flatMap(user -> bodies.readObject(request)
                        .map(KillSwitchRequests::parse)
                        .flatMap(parsed -> commands.apply(user, parsed.workspaceId(), parsed.command().action(),
                                parsed.command().tool(), parsed.command().reason(), correlationId)))
                .flatMap(outcome -> switch (outcome.kind()) {
                    case APPLIED -> JsonResponses.ok(JsonResponses.Ok.INSTANCE);
                    case FORBIDDEN -> Mono.error(ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED));
                    case INVALID -> Mono.error(ApiException.badRequest(outcome.message()));
                });
    }
}
