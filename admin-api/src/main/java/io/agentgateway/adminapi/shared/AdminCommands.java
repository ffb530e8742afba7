package io.agentgateway.adminapi.shared;

import io.agentgateway.gatewayclient.CommandGateway;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.ReplyErrors;
import io.agentgateway.schemas.command.Command;
import java.util.Collection;
import java.util.Comparator;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Sends an admin's command to the decision stream: {@link Applied} once the reply is OK, else its {@link ApiException}. */
@Component
public class AdminCommands {
    private final CommandGateway gateway;

    AdminCommands(CommandGateway gateway) {
        this.gateway = gateway;
    }

    /** As the user, under the request's correlation id. */
    public Mono<Applied> send(String correlationId, AuthenticatedUser user, UUID workspaceId, Command command) {
        return gateway.send(workspaceId.toString(), correlationId, user.actor(), command)
                .map(reply -> Applied.of(ReplyErrors.requireOk(reply, ErrorMessages.INVALID_TOKEN)));
    }

    /**
     * As {@link #send(String, AuthenticatedUser, UUID, Command)}, and a refusal whose text starts with one of
     * {@code fields} (the decision stream names the field it refuses first: {@code config.repos entries must ...}) is
     * addressed to that field ({@code ApiException#field()}); its status and text stay the API's.
     */
    public Mono<Applied> send(String correlationId, AuthenticatedUser user, UUID workspaceId, Command command,
                              Collection<String> fields) {
        return send(correlationId, user, workspaceId, command)
                .onErrorMap(ApiException.class, e -> addressed(e, fields));
    }

    static ApiException addressed(ApiException e, Collection<String> fields) {
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
