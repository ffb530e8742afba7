package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Set;

/**
 * Register a new API key. The ingress generates the key, shows it once and sends only its SHA-256
 * hash ({@code keyHash}, lower-case hex). {@code expiresAt} null means no expiry.
 * {@code agentId} / {@code agentIdPattern} bind the key to one agent id, or to the ids a {@code *} glob matches
 * (docs/decisions/0021-api-keys-bound-to-an-agent.md): a request with the key naming another agent is refused, and one
 * naming none acts as {@code agentId}. Both null: the key is bound to no agent (the agent id a request names is only
 * asserted).
 */
public record IssueApiKey(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt,
                          String agentId, String agentIdPattern) implements Command {

    /** A key bound to no agent (also the form written before keys could be bound). */
    public IssueApiKey(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt) {
        this(keyId, name, keyHash, scopes, expiresAt, null, null);
    }
}
