package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.Set;

/**
 * Register a new API key. The ingress generates the key, shows it once and sends only its SHA-256
 * hash ({@code keyHash}, lower-case hex). {@code expiresAt} null means no expiry.
 */
public record IssueApiKey(String keyId, String name, String keyHash, Set<Scope> scopes, Instant expiresAt)
        implements Command {}
