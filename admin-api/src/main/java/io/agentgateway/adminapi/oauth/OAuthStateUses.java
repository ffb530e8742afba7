package io.agentgateway.adminapi.oauth;

import io.agentgateway.httpedge.web.IngressTables;
import java.sql.Timestamp;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The one-time use of OAuth states, in the ingress's own table {@code ingress.oauth_state_uses} ({@link IngressTables},
 * migration {@code db/ingress/admin-api/V1}: a read-model rebuild does not touch it). A state is spent by the insert of its nonce, before its code is exchanged: across replicas and
 * restarts exactly one callback wins the insert; every later one with the same state is refused, even
 * when the first one failed further on (the admin starts again; an OAuth code is single-use upstream
 * anyway). Blocking: call off the event loop.
 */
@Repository
class OAuthStateUses {
    private final JdbcClient jdbc;
    private final IngressTables tables;

    OAuthStateUses(JdbcClient jdbc, IngressTables tables) {
        this.jdbc = jdbc;
        this.tables = tables;
    }

    /** @return true when this call spent the state, false when it had been used before */
    boolean spend(OAuthState state) {
        tables.ready();
        // expired states are refused by their signature check before they get here, so their rows can go;
        // an hour later than needed, so that a replica whose clock lags the database's cannot slip one through
        jdbc.sql("delete from ingress.oauth_state_uses where expires_at < now() - interval '1 hour'").update();
        int inserted = jdbc.sql("""
                        insert into ingress.oauth_state_uses (nonce, workspace_id, tool, used_by, expires_at)
                        values (:nonce, :workspace, :tool, :user, :expires)
                        on conflict (nonce) do nothing
                        """)
                .param("nonce", state.nonce())
                .param("workspace", state.workspaceId())
                .param("tool", state.tool().tool().wire())
                .param("user", state.userId())
                .param("expires", Timestamp.from(state.expiresAt()))
                .update();
        return inserted == 1;
    }
}
