package io.agentgateway.ingress.killswitch;

import io.agentgateway.ingress.auth.UserAuthenticator;
import io.agentgateway.ingress.gateway.CommandGateway;
import io.agentgateway.ingress.web.CorrelationIds;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.ReplyErrors;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * POST /functions/v1/kill-switch (spec 4.2): user JWT (401), body (400), then the decision stream,
 * which checks the admin/owner role in log order (403) and applies the switch. {@code {ok:true}} is
 * returned only after the stream has accepted the change, so a 200 means every later command of the
 * workspace sees it.
 */
@Component
public class KillSwitchHandler {
    private final UserAuthenticator users;
    private final JsonBodyReader bodies;
    private final CommandGateway gateway;

    KillSwitchHandler(UserAuthenticator users, JsonBodyReader bodies, CommandGateway gateway) {
        this.users = users;
        this.bodies = bodies;
        this.gateway = gateway;
    }

    public Mono<ServerResponse> killSwitch(ServerRequest request) {
        String correlationId = CorrelationIds.of(request);
        return users.authenticate(request)
                .flatMap(user -> bodies.readObject(request)
                        .map(KillSwitchRequests::parse)
                        .flatMap(parsed -> gateway.send(parsed.workspaceId().toString(), correlationId, user.actor(), parsed.command())))
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN))
                .flatMap(reply -> JsonResponses.ok(JsonResponses.Ok.INSTANCE));
    }
}
