package io.agentgateway.schemas.event;

import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Set;

/** {@code keyHash} is the SHA-256 hex of the key; the key itself never enters the log. */
public record ApiKeyIssued(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt)
        implements DomainEvent {}
