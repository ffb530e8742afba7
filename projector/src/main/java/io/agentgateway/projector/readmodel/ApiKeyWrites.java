package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code api_keys}, keyed by key id. A key is immutable once issued and a revocation is final, so
 * a redelivered issue never un-revokes a key and needs no version guard; both still advance the
 * workspace version, which counts every configuration change the read models reflect.
 */
final class ApiKeyWrites {
    private ApiKeyWrites() {}

    private static final SqlStatement ISSUE = SqlStatement.inEventOrder("""
            insert into api_keys (key_id, workspace_id, name, key_hash, scopes, expires_at, created_at, agent_id,
                agent_id_pattern)
            values (:key_id::uuid, :workspace_id::uuid, :name, :key_hash, :scopes, :expires_at, :occurred_at, :agent_id,
                :agent_id_pattern)
            on conflict (key_id) do nothing
            """);

    private static final SqlStatement REVOKE = SqlStatement.inEventOrder("""
            update api_keys set revoked_at = :occurred_at
             where key_id = :key_id::uuid and workspace_id = :workspace_id::uuid and revoked_at is null
            """);

    /**
     * Last use, the minute it fell in: idempotent and order-free (it only moves forward), so it runs after the batch's
     * event-order writes, which may hold the key's issue. The minute, not the instant, so the value depends only on the
     * events, not on how they were batched: a rebuild writes the same. Of one key's uses a batch writes the latest
     * minute alone, and a minute already committed is not written again ({@link Write.Coalescing}): a key that makes
     * hundreds of evaluations a second costs one UPDATE a minute.
     */
    private static final SqlStatement USED = SqlStatement.amendingAppended("""
            update api_keys set last_used_at = :used_minute
             where key_hash = :key_hash and workspace_id = :workspace_id::uuid
               and (last_used_at is null or last_used_at < :used_minute)
            """);

    /** An evaluation an API key made (its actor), or nothing for any other actor. */
    static List<Write> used(EventEnvelope envelope) {
        if (envelope.actor() == null || envelope.actor().kind() != ActorKind.API_KEY
                || envelope.actor().apiKeyHash() == null) {
            return List.of();
        }
        String keyHash = envelope.actor().apiKeyHash();
        Instant minute = envelope.occurredAt().truncatedTo(ChronoUnit.MINUTES);
        SqlParams params = new SqlParams().uuid("workspace_id", envelope.workspaceId()).text("key_hash", keyHash)
                .timestamp("used_minute", minute);
        return List.of(new Write(USED, params.source(),
                new Write.Coalescing("api-key-used " + envelope.workspaceId() + " " + keyHash, minute.getEpochSecond())));
    }

    static List<Write> issued(EventEnvelope envelope, ApiKeyIssued event) {
        return List.of(new Write(ISSUE, EnvelopeParams.of(envelope)
                .uuid("key_id", event.keyId())
                .text("name", event.name())
                .text("key_hash", event.keyHash())
                .textArray("scopes", event.scopes() == null ? List.of()
                        : event.scopes().stream().sorted().map(Scope::wire).toList())
                .timestamp("expires_at", event.expiresAt())
                .text("agent_id", event.agentId())
                .text("agent_id_pattern", event.agentIdPattern())
                .source()),
                WorkspaceVersionGuard.advance(envelope));
    }

    static List<Write> revoked(EventEnvelope envelope, ApiKeyRevoked event) {
        return List.of(new Write(REVOKE, EnvelopeParams.of(envelope).uuid("key_id", event.keyId()).source()),
                WorkspaceVersionGuard.advance(envelope));
    }
}
