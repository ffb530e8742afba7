package io.agentgateway.adminapi;

import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.ReplyErrors;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.Reply;
import java.util.Collection;
import java.util.Comparator;
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
        return send(CorrelationIds.of(request), user, workspaceId, command);
    }

    /** As the user, under the request's correlation id: the reply when OK, else its {@code ApiException}. */
    Mono<Reply> send(String correlationId, AuthenticatedUser user, UUID workspaceId, Command command) {
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), command)
                .map(reply -> ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN));
    }

    /**
     * As {@link #send(String, AuthenticatedUser, UUID, Command)}, and a refusal whose text starts with one of
     * {@code fields} (the decision stream names the field it refuses first: {@code config.repos entries must ...}) is
     * addressed to that field ({@code ApiException#field()}); its status and text stay the API's.
     */
    Mono<Reply> send(String correlationId, AuthenticatedUser user, UUID workspaceId, Command command,
                     Collection<String> fields) {
        return send(correlationId, user, workspaceId, command)
                .onErrorMap(ApiException.class, e -> addressed(e, fields));
    }

    static ApiException addressed(ApiException e,
                                                              Collection<String> fields) {
        if (e.field() != null || e.status().value() != 400 || e.getMessage() == null) {
            return e;
        }
        String text = e.getMessage();
        return fields.stream()
                .filter(field -> text.startsWith(field + " ") || text.startsWith(field + ":"))
                .max(Comparator.comparingInt(String::length))
                .map(field -> ApiException.badField(field, text))
                .orElse(e);
    }
}
