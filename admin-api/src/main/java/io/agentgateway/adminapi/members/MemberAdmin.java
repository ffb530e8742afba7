package io.agentgateway.adminapi.members;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.SetMember;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's members and their roles, for every client of them (the admin API, the console): the list, and a member
 * set or removed as one command through the decision stream, which enforces in log order who may do what: admins and
 * owners change members, only an owner grants the owner role or changes or removes an owner (so nobody promotes
 * themselves to owner), and the last owner is never demoted or removed.
 */
@Service
public class MemberAdmin {
    static final String ROLE_MESSAGE = "role must be one of: " + WireNames.of(Role.values());
    static final int MAX_USER_ID_LENGTH = 256;

    /** A member as listed. */
    public record MemberView(String userId, String email, String role, Instant updatedAt) {}

    private final AdminCommands commands;
    private final MemberRepository members;

    MemberAdmin(AdminCommands commands, MemberRepository members) {
        this.commands = commands;
        this.members = members;
    }

    /** By user id. */
    public Mono<List<MemberView>> list(UUID workspaceId) {
        return Blocking.call(() -> members.list(workspaceId));
    }

    /** {@code {email?, role}} as {@code PUT .../members/{userId}} takes it. */
    public Mono<Applied> set(AuthenticatedUser user, UUID workspaceId, String userId, ObjectNode body,
                           String correlationId) {
        return Mono.fromCallable(() -> {
            String member = userId(userId);
            JsonFields.onlyKnownFields(body, Set.of("email", "role"), "");
            String email = JsonFields.optionalString(body, "email");
            if (email != null && (email.isBlank() || !email.contains("@"))) {
                throw ApiException.badField("email", "email must be an email address");
            }
            Role role = JsonFields.requiredEnum(body, "role", Role::parse, ROLE_MESSAGE);
            return new SetMember(member, email, role);
        }).flatMap(command -> commands.send(correlationId, user, workspaceId, command));
    }

    public Mono<Applied> remove(AuthenticatedUser user, UUID workspaceId, String userId, String correlationId) {
        return Mono.fromCallable(() -> new RemoveMember(userId(userId)))
                .flatMap(command -> commands.send(correlationId, user, workspaceId, command));
    }

    /** @throws ApiException 400 (field {@code userId}) for an empty or overlong id */
    static String userId(String userId) {
        if (userId == null || userId.isBlank() || userId.length() > MAX_USER_ID_LENGTH) {
            throw ApiException.badField("userId", "userId must be a non-empty string of at most " + MAX_USER_ID_LENGTH + " characters");
        }
        return userId;
    }
}
