package io.agentgateway.decision.state;

import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * An API key of the workspace, stored under its SHA-256 hash. The key itself never reaches the stream.
 *
 * @param expiresAt null means the key never expires
 * @param revokedAt null while the key is active
 */
public record ApiKeyGrant(String keyId, String name, Set<Scope> scopes, Instant expiresAt, Instant revokedAt) {

    public ApiKeyGrant {
        Objects.requireNonNull(keyId, "keyId");
        // EnumSet keeps iteration (and so the serialized state) in one stable order
        scopes = scopes == null || scopes.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(scopes));
    }

    /** Usable for {@code scope} at {@code at}: not revoked, not yet expired, and granted that scope. */
    public boolean permits(Scope scope, Instant at) {
        return revokedAt == null
                && (expiresAt == null || at.isBefore(expiresAt))
                && scope != null
                && scopes.contains(scope);
    }

    public ApiKeyGrant revokedAt(Instant at) {
        return new ApiKeyGrant(keyId, name, scopes, expiresAt, at);
    }
}
