package io.agentgateway.console;

import io.agentgateway.console.session.Secrets;
import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.httpedge.web.IngressTables;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Authorization code flows in progress (PKCE verifier, nonce, where to return), from the redirect to the provider to
 * its callback, on whichever replica that lands; each used once. Blocking: call off the event loop.
 */
@Component
class SignInFlows {
    /** A flow: {@code reauthOf} is the session it re-authenticates (its id hash), null for a new sign-in. */
    record Flow(String codeVerifier, String nonce, String returnTo, String reauthOf, Instant createdAt) {}

    private record Stored(Flow flow, Instant expiresAt) {}

    private final JdbcClient jdbc;
    private final IngressTables tables;
    private final ConsoleProperties properties;

    SignInFlows(JdbcClient jdbc, IngressTables tables, ConsoleProperties properties) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.properties = properties;
    }

    void start(String state, Flow flow) {
        tables.ready();
        jdbc.sql("""
                insert into ingress.console_sign_in_flows (state_hash, code_verifier, nonce, return_to, reauth_of, created_at, expires_at)
                values (:state, :verifier, :nonce, :returnTo, :reauthOf, :created, :expires)
                """)
                .param("state", Secrets.hash(state)).param("verifier", flow.codeVerifier()).param("nonce", flow.nonce())
                .param("returnTo", flow.returnTo()).param("reauthOf", flow.reauthOf())
                .param("created", Timestamp.from(flow.createdAt()))
                .param("expires", Timestamp.from(flow.createdAt().plus(properties.signInTtl())))
                .update();
    }

    /** The flow of {@code state}, deleted (used once); empty when unknown or expired. */
    Optional<Flow> finish(String state) {
        tables.ready();
        return jdbc.sql("""
                        delete from ingress.console_sign_in_flows where state_hash = :state
                        returning code_verifier, nonce, return_to, reauth_of, created_at, expires_at
                        """)
                .param("state", Secrets.hash(state))
                .query((rs, row) -> new Stored(new Flow(rs.getString("code_verifier"), rs.getString("nonce"),
                        rs.getString("return_to"), rs.getString("reauth_of"), rs.getTimestamp("created_at").toInstant()),
                        rs.getTimestamp("expires_at").toInstant()))
                .optional()
                .filter(stored -> stored.expiresAt().isAfter(Instant.now()))
                .map(Stored::flow);
    }
}
