package io.agentgateway.console.admin;

import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.members.MemberAdmin;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's members and roles: invite by the user id the identity provider gives (its subject, or the email when
 * the provider identifies users by email), change a role, remove. The rules the decision stream enforces (only an owner
 * grants the owner role or changes or removes an owner, so nobody promotes themselves to owner; the last owner is never
 * demoted or removed) are shown as disabled actions with the reason, not as errors after the fact; the stream still
 * decides every change in log order ({@link MemberAdmin}).
 */
@Component
public class MembersPage {
    static final Map<String, String> INPUTS = Map.of("userId", "userId", "email", "email", "role", "role");
    static final String ONLY_OWNERS = "Only an owner may grant the owner role, or change or remove an owner.";
    static final String LAST_OWNER = "The last owner cannot be demoted or removed.";

    private final AdminPages admin;
    private final MemberAdmin members;

    MembersPage(AdminPages admin, MemberAdmin members) {
        this.admin = admin;
        this.members = members;
    }

    /** GET /members */
    public Mono<ServerResponse> first(ServerRequest request) {
        return admin.first(request, "members", true);
    }

    /** GET /workspaces/{workspaceId}/members */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "see and change members");
            return model(reader, member, FormErrors.none(), typed(null)).map(model -> {
                model.put("done", request.queryParam("done").filter(d -> d.equals("invited") || d.equals("changed")
                        || d.equals("removed")).orElse(null));
                return model;
            });
        }).flatMap(model -> admin.pages.page("members", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<Map<String, Object>> model(Reader reader, Membership member, FormErrors errors, Map<String, String> typed) {
        return Mono.zip(admin.model(reader, member, "members", "member"), members.list(member.workspaceId()), (model, list) -> {
            boolean actorIsOwner = member.role() == Role.OWNER;
            long owners = list.stream().filter(m -> "owner".equals(m.role())).count();
            String self = reader.session().userId();
            model.put("members", list.stream().map(m -> MemberRow.of(m, actorIsOwner, owners, self)).toList());
            model.put("roleChoices", RoleChoice.all(actorIsOwner));
            model.put("actorIsOwner", actorIsOwner);
            model.put("errors", errors);
            model.put("typed", typed);
            model.put("done", null);
            return model;
        });
    }

    private static Map<String, String> typed(MultiValueMap<String, String> form) {
        Map<String, String> typed = new LinkedHashMap<>();
        for (String field : List.of("userId", "email", "role")) {
            String value = form == null ? null : form.getFirst(field);
            typed.put(field, value == null ? (field.equals("role") ? "reviewer" : "") : value);
        }
        return typed;
    }

    /** POST /workspaces/{workspaceId}/members (userId, email, role): a new member, or a member's role and email. */
    public Mono<ServerResponse> invite(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            String userId = Forms.text(submitted.form(), "userId");
            String email = Forms.text(submitted.form(), "email");
            if (email == null && userId != null && userId.contains("@")) {
                // invited by email (a provider that identifies users by email): notifications go there too
                email = userId;
            }
            return change(request, submitted, userId, email, "invited");
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** POST /workspaces/{workspaceId}/members/role (userId, role) */
    public Mono<ServerResponse> role(ServerRequest request) {
        return admin.requests.submission(request)
                .flatMap(submitted -> change(request, submitted, submitted.field("userId"), null, "changed"))
                .onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<ServerResponse> change(ServerRequest request, ConsoleRequests.Submission submitted,
                                        String userId, String email, String done) {
        Membership member = AdminPages.admin(submitted.reader(), request, "change members");
        UUID workspaceId = member.workspaceId();
        ObjectNode body = Forms.object();
        Forms.putText(body, "email", email);
        Forms.putText(body, "role", Forms.text(submitted.form(), "role"));
        return members.set(submitted.reader().session().user(), workspaceId, userId == null ? "" : userId, body,
                        CorrelationIds.of(request))
                .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/members?done=" + done))
                .onErrorResume(e -> rerender(submitted, member, e));
    }

    /** POST /workspaces/{workspaceId}/members/remove (userId) */
    public Mono<ServerResponse> remove(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "remove members");
            UUID workspaceId = member.workspaceId();
            String userId = submitted.field("userId");
            return members.remove(submitted.reader().session().user(), workspaceId, userId == null ? "" : userId,
                            CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/members?done=removed"))
                    .onErrorResume(e -> rerender(submitted, member, e));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<ServerResponse> rerender(ConsoleRequests.Submission submitted, Membership member,
                                          Throwable failure) {
        return FormErrors.of(failure, INPUTS)
                .map(errors -> model(submitted.reader(), member, errors, typed(submitted.form()))
                        .flatMap(model -> admin.pages.page(errors.status(), "members", model)))
                .orElseGet(() -> Mono.error(failure));
    }

    /** A role in the select: whether this user may grant it, and why not. */
    public record RoleChoice(String role, boolean allowed, String why) {
        static List<RoleChoice> all(boolean actorIsOwner) {
            return Arrays.stream(new Role[] {Role.VIEWER, Role.REVIEWER, Role.MEMBER, Role.ADMIN, Role.OWNER})
                    .map(role -> role == Role.OWNER && !actorIsOwner ? new RoleChoice(role.wire(), false, ONLY_OWNERS)
                            : new RoleChoice(role.wire(), true, null))
                    .toList();
        }
    }

    /** A member as listed, with what this user may do to them and, when not, why. */
    public record MemberRow(String userId, String email, String role, Instant updatedAt, boolean self, boolean mayChange,
                            boolean mayRemove, String why) {
        static MemberRow of(MemberAdmin.MemberView member, boolean actorIsOwner, long owners, String self) {
            boolean owner = "owner".equals(member.role());
            String why = null;
            boolean mayChange = true;
            boolean mayRemove = true;
            if (owner && !actorIsOwner) {
                mayChange = false;
                mayRemove = false;
                why = ONLY_OWNERS;
            } else if (owner && owners <= 1) {
                mayChange = false;
                mayRemove = false;
                why = LAST_OWNER;
            }
            return new MemberRow(member.userId(), member.email(), member.role(), member.updatedAt(),
                    member.userId().equals(self), mayChange, mayRemove, why);
        }
    }
}
