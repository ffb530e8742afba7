package io.agentgateway.httpedge.auth;

import io.agentgateway.schemas.Actor;

/** The subject of a verified user JWT: {@code sub} and the optional {@code email} claim. */
public record AuthenticatedUser(String userId, String email) {

    public Actor actor() {
        return Actor.user(userId, email);
    }
}
