package io.agentgateway.ingress.auth;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.schemas.Scope;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Checks an API key against the projected {@code api_keys} table for the read endpoints (the
 * evaluate path leaves this to the decision stream, which sees revocations in log order). The read
 * model may lag the log by a moment: a key revoked a moment ago can still read its own workspace's
 * approval status during that moment, never decide anything.
 */
@Component
public class ApiKeyVerifier {
    private final JdbcClient jdbc;

    public ApiKeyVerifier(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The key's workspace when the key is active, else a 401. */
    public Mono<UUID> verify(ApiKeyCredential credential) {
        return verify(credential, null);
    }

    /**
     * The key's workspace when the key is active and has the scope, else a 401 (for entry points whose
     * requests send no command, such as the MCP gate's initialize and tools/list).
     */
    public Mono<UUID> verify(ApiKeyCredential credential, Scope required) {
        return Blocking.call(() -> jdbc.sql("""
                        select count(*) from api_keys
                        where key_hash = :hash and workspace_id = :workspace
                          and revoked_at is null and (expires_at is null or expires_at > now())
                          and (cast(:scope as text) is null or cast(:scope as text) = any(scopes))
                        """)
                        .param("hash", credential.keyHash())
                        .param("workspace", credential.workspaceId())
                        .param("scope", required == null ? null : required.wire())
                        .query(Long.class).single())
                .map(active -> {
                    if (active == 0) {
                        throw ApiException.unauthorized(ErrorMessages.INVALID_API_KEY);
                    }
                    return credential.workspaceId();
                });
    }
}
