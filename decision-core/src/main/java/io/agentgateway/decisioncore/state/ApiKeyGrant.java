package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An API key of the workspace: one entry of the {@code api-keys} store, under the workspace and the key's
 * SHA-256 hash. The key itself never reaches the stream. A revoked or expired key stays a grace period
 * after it ended (revoking it again is still answered ok), then the expiry sweep removes it.
 *
 * @param expiresAt null means the key never expires
 * @param revokedAt null while the key is active
 * @param agentId        the one agent id the key acts as, or null
 * @param agentIdPattern a {@code *} glob of the agent ids the key may act as, or null; both null: bound to no agent
 */
public record ApiKeyGrant(String keyId, String name, Set<Scope> scopes, Instant expiresAt, Instant revokedAt,
                          String agentId, String agentIdPattern) {

    /** A key bound to no agent (a stored form from before agent binding reads as this). */
    public ApiKeyGrant(String keyId, String name, Set<Scope> scopes, Instant expiresAt, Instant revokedAt) {
        this(keyId, name, scopes, expiresAt, revokedAt, null, null);
    }

    public ApiKeyGrant {
        Objects.requireNonNull(keyId, "keyId");
        // EnumSet keeps iteration (and so the serialized state) in one stable order
        scopes = scopes == null || scopes.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(scopes));
    }

    /** Usable for {@code scope} at {@code at}: not revoked, not yet expired, and granted that scope. */
    public boolean permits(Scope scope, Instant at) {
        return revokedAt == null
                && (expiresAt == null || at.isBefore(expiresAt))
                && scope != null
                && scopes.contains(scope);
    }

    /** When the key stopped being usable: its revocation or its expiry, whichever came first; empty while it can still be used. */
    public Optional<Instant> endedAt() {
        if (revokedAt == null) {
            return Optional.ofNullable(expiresAt);
        }
        return Optional.of(expiresAt != null && expiresAt.isBefore(revokedAt) ? expiresAt : revokedAt);
    }

    /** When the key leaves the state: {@code grace} after it ended; empty for a key that has not ended. */
    public Optional<Instant> removableAt(Duration grace) {
        return endedAt().map(ended -> ended.plus(grace));
    }

    public ApiKeyGrant revokedAt(Instant at) {
        return new ApiKeyGrant(keyId, name, scopes, expiresAt, at, agentId, agentIdPattern);
    }

    /** Whether the key is bound to an agent id or a pattern of them: the agent it names is then not merely asserted. */
    public boolean boundToAgent() {
        return agentId != null || agentIdPattern != null;
    }

    /** Whether a request with this key may act as {@code requested} (any agent, for a key bound to none). */
    public boolean mayActAs(String requested) {
        if (!boundToAgent()) {
            return true;
        }
        if (requested == null) {
            return false;
        }
        return requested.equals(agentId)
                || (agentIdPattern != null && Wildcards.matches(agentIdPattern, requested));
    }
}
