package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.auth.AuthenticatedUser;
import io.agentgateway.ingress.gateway.CommandGateway;
import io.agentgateway.ingress.web.CorrelationIds;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.ingress.web.ReplyErrors;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.Reply;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/** Sends an admin's command to the decision stream and turns a non-OK reply into its HTTP error. */
@Component
class AdminCommands {
    private final CommandGateway gateway;

    AdminCommands(CommandGateway gateway) {
        this.gateway = gateway;
    }

    Mono<Reply> send(ServerRequest request, AuthenticatedUser user, UUID workspaceId, Command command) {
        return gateway.send(workspaceId.toString(), CorrelationIds.of(request), user.actor(), command)
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN));
    }
}
