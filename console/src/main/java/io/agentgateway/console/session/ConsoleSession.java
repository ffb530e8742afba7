package io.agentgateway.console.session;

import io.agentgateway.httpedge.auth.AuthenticatedUser;
import java.time.Instant;

/**
 * A signed-in browser: who, how ({@code oidc} or {@code link}), its CSRF token and when the user last proved who
 * they are. {@code idHash} is what is stored of the cookie's random id.
 */
public record ConsoleSession(String idHash, String userId, String email, String signedInVia, String csrfToken,
                             Instant createdAt, Instant authenticatedAt, Instant lastSeenAt) {

    public AuthenticatedUser user() {
        return new AuthenticatedUser(userId, email);
    }

    /** The name shown on the page: the email when known. */
    public String displayName() {
        return email != null && !email.isBlank() ? email : userId;
    }
}
