package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.Member;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Optional;

/**
 * Who may do what, judged against the workspace state in log order (so a revocation or demotion
 * accepted before a command applies to it). A missing workspace authorizes nobody, which is also
 * what keeps its existence from leaking.
 */
public final class CommandAuthorizer {
    /** The refusal of an API key the workspace does not hold, or holds revoked, expired or without the scope. */
    public static final String INVALID_KEY = "Invalid or expired API key";
    public static final String ADMIN_REQUIRED = "Admin or owner role required";
    public static final String REVIEWER_REQUIRED = "Reviewer, admin or owner role required";
    public static final String GATEWAY_REQUIRED = "Only the gateway itself may run approved calls";

    /** The key behind an API-key actor, if it belongs to this workspace and is usable for {@code scope} at {@code at}. */
    public Optional<ApiKeyGrant> apiKey(WorkspaceState state, Actor actor, Scope scope, Instant at) {
        if (!state.exists() || actor == null || actor.kind() != ActorKind.API_KEY) {
            return Optional.empty();
        }
        return state.apiKeyByHash(actor.apiKeyHash()).filter(grant -> grant.permits(scope, at));
    }

    /**
     * The key behind an API-key actor when it belongs to this workspace and is usable at {@code at}
     * (not revoked, not expired), whatever its scopes: for reads that any key of the workspace may make.
     */
    public Optional<ApiKeyGrant> anyScopeApiKey(WorkspaceState state, Actor actor, Instant at) {
        if (!state.exists() || actor == null || actor.kind() != ActorKind.API_KEY) {
            return Optional.empty();
        }
        return state.apiKeyByHash(actor.apiKeyHash())
                .filter(grant -> grant.revokedAt() == null && (grant.expiresAt() == null || at.isBefore(grant.expiresAt())));
    }

    public boolean mayAdminister(WorkspaceState state, Actor actor) {
        return memberFor(state, actor).map(Member::mayAdminister).orElse(false);
    }

    public boolean mayReview(WorkspaceState state, Actor actor) {
        return memberFor(state, actor).map(Member::mayReview).orElse(false);
    }

    public boolean isOwner(WorkspaceState state, Actor actor) {
        return memberFor(state, actor).map(member -> member.role() == Role.OWNER).orElse(false);
    }

    public static boolean isUser(Actor actor) {
        return actor != null && actor.kind() == ActorKind.USER && actor.userId() != null && !actor.userId().isBlank();
    }

    /** A component of the gateway itself; never the identity of an HTTP caller. */
    public static boolean isSystem(Actor actor) {
        return actor != null && actor.kind() == ActorKind.SYSTEM;
    }

    private static Optional<Member> memberFor(WorkspaceState state, Actor actor) {
        if (!state.exists() || !isUser(actor)) {
            return Optional.empty();
        }
        return state.member(actor.userId());
    }
}
