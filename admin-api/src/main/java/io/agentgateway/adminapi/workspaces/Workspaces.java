package io.agentgateway.adminapi.workspaces;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.auth.OperatorAuthenticator;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.schemas.command.CreateWorkspace;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The operators' workspaces, for every client of them (the admin API, the console): listing every workspace and
 * creating one with its first owner are for the subjects named in {@code gateway.auth.operators} only
 * (docs/decisions/0027-operators-create-workspaces.md); this service checks it itself, whoever calls.
 */
@Service
public class Workspaces {
    static final int MAX_ID_LENGTH = 256;

    /** A workspace as an operator lists it: who owns it, whether it is halted. */
    public record WorkspaceSummary(String workspaceId, String name, Instant createdAt, boolean killSwitchEnabled,
                                   List<String> owners) {}

    private final OperatorAuthenticator operators;
    private final AdminCommands commands;
    private final WorkspaceRepository workspaces;

    Workspaces(OperatorAuthenticator operators, AdminCommands commands, WorkspaceRepository workspaces) {
        this.operators = operators;
        this.commands = commands;
        this.workspaces = workspaces;
    }

    /** Whether the user is one of {@code gateway.auth.operators}, who list and create workspaces. */
    public Mono<Boolean> isOperator(AuthenticatedUser user) {
        return Mono.fromSupplier(() -> operator(user));
    }

    /** The first {@code limit} workspaces by creation, oldest first; 403 for a non-operator. */
    public Mono<List<WorkspaceSummary>> list(AuthenticatedUser operator, int limit) {
        return Mono.fromRunnable(() -> requireOperator(operator)).then(Blocking.call(() -> workspaces.list(limit)));
    }

    /**
     * {@code {name, ownerUserId?, ownerEmail?}} as {@code POST /admin/v1/workspaces} takes it: a new workspace whose first
     * owner is {@code ownerUserId} (else the operator). @return its id, once the decision stream created it
     */
    public Mono<UUID> create(AuthenticatedUser operator, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> {
            requireOperator(operator);
            JsonFields.onlyKnownFields(body, Set.of("name", "ownerUserId", "ownerEmail"), "");
            String name = JsonFields.requiredText(body, "name", "name must be a non-empty string");
            String ownerUserId = optionalText(body, "ownerUserId");
            String ownerEmail = optionalText(body, "ownerEmail");
            if (ownerEmail != null && ownerUserId == null) {
                throw ApiException.badField("ownerUserId", "ownerEmail needs ownerUserId");
            }
            return new CreateWorkspace(name.strip(), ownerUserId, ownerEmail);
        }).flatMap(command -> {
            UUID workspaceId = UUID.randomUUID();
            return commands.send(correlationId, operator, workspaceId, command).thenReturn(workspaceId);
        });
    }

    private boolean operator(AuthenticatedUser user) {
        return operators.isOperator(user.userId());
    }

    private void requireOperator(AuthenticatedUser user) {
        if (!operator(user)) {
            throw ApiException.forbidden(OperatorAuthenticator.OPERATOR_REQUIRED);
        }
    }

    private static String optionalText(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString() || value.asString().isBlank() || value.asString().length() > MAX_ID_LENGTH) {
            throw ApiException.badField(field, field + " must be a non-empty string of at most " + MAX_ID_LENGTH + " characters");
        }
        return value.asString().strip();
    }
}
