package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Set;

/**
 * {@code keyHash} is the SHA-256 hex of the key; the key itself never enters the log. {@code agentId} /
 * {@code agentIdPattern}: the agent the key is bound to (see {@code IssueApiKey}), null for none.
 */
public record ApiKeyIssued(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt,
                           String agentId, String agentIdPattern) implements DomainEvent {

    /** A key bound to no agent (also the form written before keys could be bound). */
    public ApiKeyIssued(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt) {
        this(keyId, name, keyHash, scopes, expiresAt, null, null);
    }
}
